import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type OrderPaymentView, orderDisplayName } from '@marketplace/events/orders';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import useSWR from 'swr';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoader } from '../../../components/PageLoader';
import { PaymentStep } from '../../../components/payment/PaymentStep';
import { ApiError, apiErrorText, apiGet } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { formatMoney } from '../../../lib/format-money';

/** Pay later: the card payment for an order that was created but not paid (pending_payment). */
export function OrderPaymentPage() {
  const { orderId = '' } = useParams();
  const navigate = useNavigate();
  const { user } = useAuth();
  const url = `/api/orders/${orderId}/payment`;
  // Never cached across visits: a client secret must be fresh and the order may have been paid meanwhile.
  const payment = useSWR(user ? [url, user.uid] : null, () => apiGet<OrderPaymentView>(url), {
    revalidateOnMount: true,
    dedupingInterval: 0,
  });

  if (payment.isLoading || (!payment.data && !payment.error)) {
    return (
      <>
        <PageHeader title="Order Payment" />
        <PageLoader label="Loading the order…" />
      </>
    );
  }

  if (payment.error || !payment.data) {
    const notPayable = payment.error instanceof ApiError && payment.error.status === 409;
    const notFound = payment.error instanceof ApiError && payment.error.status === 404;
    return (
      <>
        <PageHeader title="Order Payment" />
        <Alert
          color={notPayable ? 'yellow' : 'red'}
          icon={<IconAlertCircle size={18} aria-hidden="true" />}
          title={
            notPayable ? 'This order cannot be paid' : notFound ? 'Order not found' : 'The order could not be loaded'
          }
          maw={560}
        >
          <Stack gap="sm">
            <Text fz="sm">
              {notFound
                ? 'This order does not exist or is not yours.'
                : apiErrorText(payment.error, 'Failed to load the order. Please try again.')}
            </Text>
            <Group gap="sm">
              {!notPayable && !notFound && (
                <Button variant="light" onClick={() => void payment.mutate()}>
                  Try again
                </Button>
              )}
              {notPayable && (
                <Anchor component={Link} to={`/orders/${orderId}`}>
                  View the order
                </Anchor>
              )}
              <Anchor component={Link} to="/dashboard">
                Back to dashboard
              </Anchor>
            </Group>
          </Stack>
        </Alert>
      </>
    );
  }

  const { order, stripeClientSecret } = payment.data;
  return (
    <>
      <PageHeader
        title={orderDisplayName(order)}
        description={`${order.photoCount} ${order.photoCount === 1 ? 'photo' : 'photos'} to edit · total ${formatMoney(order.totalAmountCents)}`}
      />
      <PaymentStep
        order={order}
        clientSecret={stripeClientSecret}
        onCancel={() => navigate(`/orders/${order.id}`)}
        onPaid={() => {
          notifications.show({ color: 'green', message: 'Payment completed successfully!' });
          navigate('/dashboard');
        }}
      />
    </>
  );
}
