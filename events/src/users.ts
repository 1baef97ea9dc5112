import type { ProfilePictureView } from './profile';
import type { Role, UserStatus } from './roles';
import * as z from './zod';

/** What GET /api/auth/me returns: the signed-in user's own record. */
export interface MeView {
  id: string;
  email: string;
  displayName: string | null;
  /** The avatar to show: the uploaded image's small size once made, else a picture from the sign-in provider. */
  profileImageUrl: string | null;
  roles: Role[];
  status: UserStatus;
  createdAt: string;
  // Profile (docs/decisions/0101): phone in E.164, the uploaded image, a photographer's business.
  phone: string | null;
  profileImage: ProfilePictureView | null;
  businessName: string | null;
  businessLogo: ProfilePictureView | null;
}

export const PROFILE_TEXT_MAX = 100;

export const profileMessages = {
  displayNameEmpty: 'Display name cannot be empty',
  displayNameTooLong: `Display name must be at most ${PROFILE_TEXT_MAX} characters`,
  businessNameEmpty: 'Business name cannot be empty (send null to remove it)',
  businessNameTooLong: `Business name must be at most ${PROFILE_TEXT_MAX} characters`,
  controlCharacters: 'Names cannot contain control characters or line breaks',
  phone: 'Phone must be in international format: + and the country code, then the number (e.g. +1 555 123 4567)',
  phoneTooLong: 'Phone is too long',
  businessNameRole: 'Only photographers have a business name',
  nothing: 'Nothing to update: send displayName, phone, businessName or profileImageUrl',
} as const;

const hasControlCharacter = (value: string) =>
  [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

const profileText = (empty: string, tooLong: string) =>
  z.string().check(
    z.trim(),
    z.minLength(1, empty),
    z.maxLength(PROFILE_TEXT_MAX, tooLong),
    z.refine((v) => !hasControlCharacter(v), profileMessages.controlCharacters),
  );

/** Spaces, dashes, dots and brackets people type between digits; the number is stored without them. */
const PHONE_SEPARATORS = /[\s().-]/g;
/** E.164: + then a country code that does not start with 0, at most 15 digits in all, and at least 7. */
const E164 = /^\+[1-9]\d{6,14}$/;

/** A phone number as typed, kept as E.164 (+15551234567). */
export const normalizedPhone = (value: string) => value.replace(PHONE_SEPARATORS, '');
export const isValidPhone = (value: string) => E164.test(normalizedPhone(value));

const phoneInput = /* @__PURE__ */ z.schema(() =>
  z.pipe(
    z.string().check(
      z.trim(),
      z.maxLength(32, profileMessages.phoneTooLong),
      z.refine((v) => isValidPhone(v), profileMessages.phone),
    ),
    z.transform(normalizedPhone),
  ),
);

export const updateProfileInput = /* @__PURE__ */ z.schema(() =>
  z
    .strictObject({
      displayName: z.optional(profileText(profileMessages.displayNameEmpty, profileMessages.displayNameTooLong)),
      /** null removes it. */
      phone: z.optional(z.nullable(phoneInput)),
      /** A photographer's business, shown on their share pages; null removes it. */
      businessName: z.optional(
        z.nullable(profileText(profileMessages.businessNameEmpty, profileMessages.businessNameTooLong)),
      ),
      /** A picture the sign-in provider holds (API clients); an uploaded image goes through /api/profile/image. */
      profileImageUrl: z.optional(
        z.nullable(
          z
            .url({ protocol: /^https?$/, error: 'Profile image must be an http(s) URL' })
            .check(z.maxLength(2048, 'Profile image URL is too long')),
        ),
      ),
    })
    .check(
      z.refine(
        (v) =>
          v.displayName !== undefined ||
          v.phone !== undefined ||
          v.businessName !== undefined ||
          v.profileImageUrl !== undefined,
        { message: profileMessages.nothing },
      ),
    ),
);
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;
