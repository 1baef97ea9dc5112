import { Badge, type BadgeProps } from '@mantine/core';
import { type OrderStatus, orderStatusLabel } from '@marketplace/events/orders';

/**
 * The photographer view's colours (spec section 4). Each hue's light badge carries a dark text
 * shade of the same hue, so the small label keeps a 4.5:1 contrast.
 */
const statusColours: Record<OrderStatus, { color: string; text: string }> = {
  completed: { color: 'green', text: '#1f5f2c' },
  in_progress: { color: 'blue', text: '#10487a' },
  paid: { color: 'yellow', text: '#5c4300' },
  pending_payment: { color: 'red', text: '#9b1c1c' },
  cancelled: { color: 'gray', text: '#3b4148' },
  // Back with the editor: orange, apart from every other state.
  revision_requested: { color: 'orange', text: '#7a3b00' },
};

export function OrderStatusBadge({ status, size = 'md' }: { status: OrderStatus; size?: BadgeProps['size'] }) {
  const colours = statusColours[status] ?? statusColours.cancelled;
  return (
    <Badge variant="light" color={colours.color} c={colours.text} size={size} style={{ flexShrink: 0 }}>
      {orderStatusLabel(status)}
    </Badge>
  );
}

/** A red 'Late' marker for an order past its due time. */
export function LateBadge({ size = 'md' }: { size?: BadgeProps['size'] }) {
  return (
    <Badge variant="light" color="red" c={statusColours.pending_payment.text} size={size} style={{ flexShrink: 0 }}>
      Late
    </Badge>
  );
}
