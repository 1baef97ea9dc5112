import type { Role } from '@marketplace/events/roles';

/**
 * Who may see an order: its photographer, the editor working on it, an editor it is offered to
 * (paid and open, or assigned to them), and admins. Everyone else is told it does not exist.
 */
export const canViewOrder = (
  viewer: { userId: string; roles: readonly Role[] },
  order: { photographerId: string; editorId?: string; status: string; pool?: string },
) => {
  if (viewer.roles.includes('admin')) return true;
  if (order.photographerId === viewer.userId) return true;
  if (!viewer.roles.includes('editor')) return false;
  if (order.editorId === viewer.userId) return true;
  return order.status === 'paid' && (order.pool === 'open' || order.pool === viewer.userId);
};
