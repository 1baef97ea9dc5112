import type { AdminOrderView, AssignmentFilter } from '@marketplace/events/admin';
import { offersAssign } from './AdminOrderActions';

/** The page's checkboxes: which orders may be ticked, which are, and the two ways to change that. */
export interface OrderSelection {
  isSelectable: (order: AdminOrderView) => boolean;
  isSelected: (orderId: string) => boolean;
  toggle: (orderId: string) => void;
  /** Every selectable order on the page is ticked (false when none can be). */
  allSelected: boolean;
  someSelected: boolean;
  anySelectable: boolean;
  toggleAll: () => void;
  clear: () => void;
  /** The ticked orders that are on this page and still selectable. */
  selectedIds: string[];
}

/** Only orders the server lets the admin assign can be picked for a bulk assignment. */
export const isSelectableOrder = (order: AdminOrderView, filter: AssignmentFilter) => offersAssign(order, filter);

export function orderSelection(
  orders: AdminOrderView[],
  filter: AssignmentFilter,
  selected: ReadonlySet<string>,
  setSelected: (ids: Set<string>) => void,
): OrderSelection {
  const selectableIds = orders.filter((order) => isSelectableOrder(order, filter)).map((order) => order.id);
  const selectedIds = selectableIds.filter((id) => selected.has(id));
  const selectedCount = selectedIds.length;
  const allSelected = selectableIds.length > 0 && selectedCount === selectableIds.length;
  return {
    isSelectable: (order) => isSelectableOrder(order, filter),
    isSelected: (orderId) => selected.has(orderId),
    toggle: (orderId) => {
      const next = new Set(selected);
      if (next.has(orderId)) next.delete(orderId);
      else next.add(orderId);
      setSelected(next);
    },
    allSelected,
    someSelected: selectedCount > 0 && !allSelected,
    anySelectable: selectableIds.length > 0,
    toggleAll: () => setSelected(allSelected ? new Set() : new Set(selectableIds)),
    clear: () => setSelected(new Set()),
    selectedIds,
  };
}
