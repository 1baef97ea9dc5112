import type { Role } from '@marketplace/events/roles';
import type { Access } from '../routes';

/** Every role the marketplace knows: a signed-in user with none of them can use only their own account pages. */
export const marketplaceRoles: readonly Role[] = ['photographer', 'editor', 'admin'];

export type AccessDecision = 'allowed' | 'sign-in-required' | 'deactivated' | 'role-missing';

/** Who may call a route: the route table's rule applied to the caller, without any I/O. */
export const decideAccess = (
  access: Access,
  caller: { roles: readonly Role[]; isActive: boolean } | null,
): AccessDecision => {
  if (access === 'public') return 'allowed';
  if (!caller) return 'sign-in-required';
  if (!caller.isActive) return 'deactivated';
  if (access === 'signed-in') return 'allowed';
  return access.some((role) => caller.roles.includes(role)) ? 'allowed' : 'role-missing';
};
