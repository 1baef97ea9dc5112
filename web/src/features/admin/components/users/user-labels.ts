import type { Role, UserStatus } from '@marketplace/events/roles';

/** Roles in the order the console lists them. */
export const roleOrder: readonly Role[] = ['photographer', 'editor', 'admin'];

export const roleLabels: Record<Role, string> = {
  photographer: 'Photographer',
  editor: 'Editor',
  admin: 'Admin',
};

/** What each role may do (spec section 6), shown as the roles modal's legend. */
export const rolePermissions: Record<Role, string> = {
  photographer: 'Create orders, upload photos, pay',
  editor: 'View available orders, edit photos, complete orders',
  admin: 'Full system access, manage users, invite editors',
};

/** Each light badge carries a dark text shade of its hue, so the small label keeps a 4.5:1 contrast. */
export const userStatusBadges: Record<UserStatus, { label: string; color: string; text: string }> = {
  verified: { label: 'Verified', color: 'green', text: '#1f5f2c' },
  invited: { label: 'Invited', color: 'blue', text: '#10487a' },
  suspended: { label: 'Suspended', color: 'orange', text: '#7a3a00' },
};

export const deletedBadge = { label: 'Deleted', color: 'red', text: '#9b1c1c' };

/** While the identity provider has not yet followed a standing change (the API already has). */
export const signInPendingLabels = {
  disabling: 'Disabling sign-in…',
  enabling: 'Enabling sign-in…',
} as const;
