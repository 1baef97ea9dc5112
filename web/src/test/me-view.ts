import type { MeView } from '@marketplace/events/users';

/** A signed-in user's record as GET /api/auth/me returns it. */
export const aMeView = (fields: Partial<MeView> = {}): MeView => ({
  id: 'uid-1',
  email: 'pat@example.com',
  displayName: 'Pat Doe',
  profileImageUrl: null,
  roles: ['photographer'],
  status: 'verified',
  createdAt: '2025-01-01T00:00:00.000Z',
  phone: null,
  profileImage: null,
  businessName: null,
  businessLogo: null,
  ...fields,
});
