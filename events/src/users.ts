import * as z from 'zod';
import type { Role, UserStatus } from './roles';

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
  .object({
    displayName: z
      .string()
      .trim()
      .min(1, 'Display name cannot be empty')
      .max(100, 'Display name must be at most 100 characters')
      .optional(),
    profileImageUrl: z
      .url({ protocol: /^https?$/, error: 'Profile image must be an http(s) URL' })
      .max(2048, 'Profile image URL is too long')
      .nullable()
      .optional(),
  })
  .strict()
  .refine((v) => v.displayName !== undefined || v.profileImageUrl !== undefined, {
    message: 'Nothing to update: send displayName or profileImageUrl',
  });
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;
