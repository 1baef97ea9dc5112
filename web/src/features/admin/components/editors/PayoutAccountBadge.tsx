import { Badge } from '@mantine/core';
import type { PayoutAccountStatus, PayoutAccountView } from '@marketplace/events/payouts';

const labels: Record<PayoutAccountStatus, { label: string; color: string }> = {
  not_set_up: { label: 'No payout account', color: 'gray' },
  onboarding: { label: 'Setup not finished', color: 'yellow' },
  needs_info: { label: 'Stripe needs details', color: 'orange' },
  pending: { label: 'Being verified', color: 'blue' },
  enabled: { label: 'Payouts enabled', color: 'green' },
  restricted: { label: 'Restricted by Stripe', color: 'red' },
};

/** An editor's Stripe payout account, as a badge in Editor Management. */
export function PayoutAccountBadge({ account }: { account: PayoutAccountView }) {
  const { label, color } = labels[account.status];
  return (
    <Badge variant="light" color={color}>
      {label}
    </Badge>
  );
}
