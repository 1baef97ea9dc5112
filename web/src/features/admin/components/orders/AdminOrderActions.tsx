import { ActionIcon, Button, Group, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdminOrderView, AssignmentFilter } from '@marketplace/events/admin';
import { orderDisplayName } from '@marketplace/events/orders';
import { IconBan, IconDots, IconUserMinus, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { apiErrorText } from '../../../../lib/api-client';
import { formatMoney } from '../../../../lib/format-money';
import { useAdminOrderActions } from '../../api/orders';
import { AssignEditorModal } from './AssignEditorModal';
import { ConfirmModal } from './ConfirmModal';

const ASSIGN_SUCCESS = 'Order assigned successfully';
const ASSIGN_FAILURE = 'Failed to assign order';
const UNASSIGN_SUCCESS = 'Order unassigned successfully';
const UNASSIGN_FAILURE = 'Failed to unassign order';
const CANCEL_FAILURE = 'Failed to cancel order';

/** Why a row offers nothing to do, in the words an admin would use. */
const idleReasons: Partial<Record<AdminOrderView['status'], string>> = {
  pending_payment: 'Awaiting payment',
  in_progress: 'In Progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
  revision_requested: 'Revision Requested',
};

/** The row's assign button is offered except on the Assigned filter, where rows are unassigned instead (spec section 4). */
export const offersAssign = (order: AdminOrderView, filter: AssignmentFilter) =>
  order.canAssign && filter !== 'assigned';

type OpenDialog = 'assign' | 'unassign' | 'cancel' | null;

/** What the admin may do with one order now, as the server says; each action asks or confirms first. */
export function AdminOrderActions({
  order,
  filter,
  fullWidth,
  onAssigned,
}: {
  order: AdminOrderView;
  filter: AssignmentFilter;
  fullWidth?: boolean;
  onAssigned: () => void;
}) {
  const actions = useAdminOrderActions();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const name = orderDisplayName(order);
  const close = () => setDialog(null);

  const assign = async (editorId: string): Promise<boolean> => {
    try {
      await actions.assign(order.id, editorId);
      notifications.show({ color: 'green', message: ASSIGN_SUCCESS });
      close();
      onAssigned();
      return true;
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, ASSIGN_FAILURE) });
      return false;
    }
  };
  const unassign = async () => {
    try {
      await actions.unassign(order.id);
      notifications.show({ color: 'green', message: UNASSIGN_SUCCESS });
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, UNASSIGN_FAILURE) });
    }
    close();
  };
  const cancel = async () => {
    try {
      const { refundedAmountCents } = await actions.cancel(order.id);
      notifications.show({
        color: 'green',
        message:
          refundedAmountCents > 0
            ? `Order cancelled and ${formatMoney(refundedAmountCents)} refunded`
            : 'Order cancelled',
      });
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, CANCEL_FAILURE) });
    }
    close();
  };

  const showAssign = offersAssign(order, filter);
  const idleReason = !showAssign && !order.canUnassign ? idleReasons[order.status] : undefined;

  return (
    <Group gap="xs" wrap="nowrap" justify={fullWidth ? 'space-between' : 'flex-start'}>
      <Group gap="xs" wrap={fullWidth ? 'wrap' : 'nowrap'} style={{ flex: fullWidth ? 1 : undefined }}>
        {showAssign && (
          <Button
            size="xs"
            onClick={() => setDialog('assign')}
            leftSection={<IconUserPlus size={16} aria-hidden="true" />}
            aria-label={`${order.assignment === 'assigned' ? 'Reassign' : 'Assign'} ${name}`}
          >
            {order.assignment === 'assigned' ? 'Reassign' : 'Assign'}
          </Button>
        )}
        {order.canUnassign && (
          <Button
            size="xs"
            variant="default"
            onClick={() => setDialog('unassign')}
            leftSection={<IconUserMinus size={16} aria-hidden="true" />}
            aria-label={`Unassign ${name}`}
          >
            Unassign
          </Button>
        )}
        {idleReason && (
          <Text fz="sm" c="gray.7" fw={order.status === 'in_progress' ? 600 : undefined}>
            {idleReason}
          </Text>
        )}
      </Group>
      {order.canCancel && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray.8" aria-label={`More actions for ${name}`}>
              <IconDots size={18} aria-hidden="true" />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              color="red.9"
              leftSection={<IconBan size={16} aria-hidden="true" />}
              onClick={() => setDialog('cancel')}
            >
              Cancel order
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}

      <AssignEditorModal
        opened={dialog === 'assign'}
        title={`Assign ${name}`}
        submitLabel="Assign"
        onClose={close}
        onAssign={assign}
      >
        {order.editor
          ? `${name} is assigned to ${order.editor.display_name}. Choose the editor who should work on it instead.`
          : `Choose the editor who should work on ${name}.`}
      </AssignEditorModal>
      <ConfirmModal
        opened={dialog === 'unassign'}
        title="Unassign order"
        confirmLabel="Unassign"
        keepLabel="Keep assignment"
        onClose={close}
        onConfirm={unassign}
      >
        Are you sure you want to unassign {name}
        {order.editor ? ` from ${order.editor.display_name}` : ''}? It goes back to the unassigned orders, open to every
        editor.
      </ConfirmModal>
      <ConfirmModal
        opened={dialog === 'cancel'}
        title="Cancel order"
        confirmLabel="Cancel order"
        keepLabel="Keep order"
        danger
        onClose={close}
        onConfirm={cancel}
      >
        {order.status === 'paid'
          ? `Cancel ${name}? The photographer is refunded in full (${formatMoney(order.totalAmountCents)}). This cannot be undone.`
          : `Cancel ${name}? It has not been paid, so nothing is refunded. This cannot be undone.`}
      </ConfirmModal>
    </Group>
  );
}
