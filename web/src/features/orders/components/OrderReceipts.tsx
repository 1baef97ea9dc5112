import { Button, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type BillingEntryView, billingMessages, type OrderReceiptsView } from '@marketplace/events/billing';
import type { OrderDetailView } from '@marketplace/events/orders';
import { IconReceipt } from '@tabler/icons-react';
import { useState } from 'react';
import useSWR from 'swr';
import { apiErrorText } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { useCurrentUser } from '../../../lib/current-user';
import { formatMoney } from '../../../lib/format-money';
import { downloadReceipt, ReceiptPreparing } from '../../../lib/receipts';

const labelOf = (receipt: BillingEntryView, count: number) =>
  receipt.kind === 'refund'
    ? `Download refund receipt (${formatMoney(receipt.amountCents)})`
    : count > 1
      ? `Download receipt (${formatMoney(receipt.amountCents)})`
      : 'Download receipt';

/**
 * The order's PDF receipts in its Actions: one for the payment and, after a cancellation, one for
 * the refund. Shown to the photographer who paid once the order is paid.
 */
export function OrderReceipts({ order }: { order: OrderDetailView }) {
  const { user } = useAuth();
  const { data: me } = useCurrentUser();
  const [busyId, setBusyId] = useState<string | null>(null);
  const mayHaveReceipts = order.status !== 'pending_payment' && me?.roles.includes('photographer');
  const url = `/api/orders/${encodeURIComponent(order.id)}/receipts`;
  const { data } = useSWR<OrderReceiptsView>(mayHaveReceipts && user ? [url, user.uid, order.status] : null);
  const receipts = data?.receipts ?? [];
  if (!receipts.length) return null;

  const download = async (receipt: BillingEntryView) => {
    setBusyId(receipt.id);
    try {
      await downloadReceipt(order.id, receipt.id);
    } catch (error) {
      const message =
        error instanceof ReceiptPreparing ? error.message : apiErrorText(error, billingMessages.receiptFailed);
      notifications.show({ color: error instanceof ReceiptPreparing ? 'blue' : 'red', message });
    } finally {
      setBusyId(null);
    }
  };

  return (
    <Stack gap="xs">
      {receipts.map((receipt) => (
        <Button
          key={receipt.id}
          variant="default"
          fullWidth
          loading={busyId === receipt.id}
          leftSection={<IconReceipt size={18} aria-hidden="true" />}
          onClick={() => void download(receipt)}
        >
          {labelOf(receipt, receipts.length)}
        </Button>
      ))}
    </Stack>
  );
}
