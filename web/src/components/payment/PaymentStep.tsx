import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { OrderDetailView } from '@marketplace/events/orders';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { type FormEvent, lazy, Suspense, useRef, useState } from 'react';
import { formatMoney } from '../../lib/format-money';
import { PageLoader } from '../PageLoader';
import { LocalTestCardForm } from './LocalTestCardForm';
import { type CardSubmitter, PaymentStopped, payForOrder, paymentMessages } from './payment-flow';

// Stripe.js and its React bindings are downloaded only when a publishable key is configured.
const StripePaymentForm = lazy(() => import('./StripePaymentForm').then((m) => ({ default: m.StripePaymentForm })));

export interface PayableOrder {
  id: string;
  orderNumber: number;
  photoCount: number;
  totalAmountCents: number;
}

/**
 * The card payment step shared by order creation and the pay-later page: the order, the card
 * form, Cancel and 'Pay $X'. It tells the server once the card payment has succeeded.
 */
export function PaymentStep({
  order,
  clientSecret,
  onCancel,
  onPaid,
}: {
  order: PayableOrder;
  clientSecret: string;
  onCancel: () => void;
  onPaid: (order: OrderDetailView) => void;
}) {
  const submitterRef = useRef<CardSubmitter | null>(null);
  const [paying, setPaying] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const publishableKey = import.meta.env.VITE_STRIPE_PUBLISHABLE_KEY;

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    setPaying(true);
    setFailure(null);
    try {
      const paidOrder = await payForOrder({ orderId: order.id, clientSecret, submitter: submitterRef.current });
      onPaid(paidOrder);
    } catch (error) {
      // Anything else that went wrong reads 'Payment failed: {message}', the error's own words.
      const message =
        error instanceof PaymentStopped
          ? error.message
          : paymentMessages.unexpected(error instanceof Error ? error.message : String(error));
      setFailure(message);
      notifications.show({ color: 'red', message });
      setPaying(false);
    }
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} maw={560}>
      <form onSubmit={pay} noValidate aria-labelledby="payment-step-heading">
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={2} fz="xl" id="payment-step-heading">
              Complete Payment
            </Title>
            <Text c="gray.7">
              Order #{order.orderNumber} · {order.photoCount} {order.photoCount === 1 ? 'photo' : 'photos'} to edit
            </Text>
          </Stack>
          {publishableKey ? (
            <Suspense fallback={<PageLoader label="Loading the payment form…" />}>
              <StripePaymentForm
                publishableKey={publishableKey}
                clientSecret={clientSecret}
                submitterRef={submitterRef}
              />
            </Suspense>
          ) : (
            <LocalTestCardForm submitterRef={submitterRef} disabled={paying} />
          )}
          {failure && (
            <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="space-between" align="center" gap="sm">
            <Text fw={600}>Total {formatMoney(order.totalAmountCents)}</Text>
            <Group gap="sm">
              <Button variant="default" onClick={onCancel} disabled={paying}>
                Cancel
              </Button>
              <Button type="submit" loading={paying} leftSection={<IconLock size={16} aria-hidden="true" />}>
                Pay {formatMoney(order.totalAmountCents)}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
