import type { Role, UserStatus } from '@marketplace/events/roles';
import type { Access } from '../routes';

/** Every role the marketplace knows: a signed-in user with none of them can use only their own account pages. */
export const marketplaceRoles: readonly Role[] = ['photographer', 'editor', 'admin'];

export type AccessDecision = 'allowed' | 'sign-in-required' | 'deactivated' | 'role-missing';

interface Standing {
  roles: readonly Role[];
  isActive: boolean;
  /** Absent reads as verified (callers that only know roles and isActive). */
  status?: UserStatus;
}

/** A deleted account (isActive false) and a suspended one are both shut out, whatever their roles. */
export const isShutOut = (user: Pick<Standing, 'isActive' | 'status'>) => !user.isActive || user.status === 'suspended';

/** An admin who can still act: the marketplace must always keep at least one. */
export const isActiveAdmin = (user: Standing) => user.roles.includes('admin') && !isShutOut(user);

/** Who may call a route: the route table's rule applied to the caller, without any I/O. */
export const decideAccess = (access: Access, caller: Standing | null): AccessDecision => {
  if (access === 'public') return 'allowed';
  if (!caller) return 'sign-in-required';
  if (isShutOut(caller)) return 'deactivated';
  if (access === 'signed-in') return 'allowed';
  // An invited editor holds no role until sign-up has verified the account (complete-signup).
  if (caller.status === 'invited') return 'role-missing';
  return access.some((role) => caller.roles.includes(role)) ? 'allowed' : 'role-missing';
};
