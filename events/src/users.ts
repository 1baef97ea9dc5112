import type { Role, UserStatus } from './roles';
import * as z from './zod';

/** What GET /api/auth/me returns: the signed-in user's own record. */
export interface MeView {
  id: string;
  email: string;
  displayName: string | null;
  profileImageUrl: string | null;
  roles: Role[];
  status: UserStatus;
  createdAt: string;
}

export const updateProfileInput = z
  .strictObject({
    displayName: z.optional(
      z
        .string()
        .check(
          z.trim(),
          z.minLength(1, 'Display name cannot be empty'),
          z.maxLength(100, 'Display name must be at most 100 characters'),
        ),
    ),
    profileImageUrl: z.optional(
      z.nullable(
        z
          .url({ protocol: /^https?$/, error: 'Profile image must be an http(s) URL' })
          .check(z.maxLength(2048, 'Profile image URL is too long')),
      ),
    ),
  })
  .check(
    z.refine((v) => v.displayName !== undefined || v.profileImageUrl !== undefined, {
      message: 'Nothing to update: send displayName or profileImageUrl',
    }),
  );
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;
