import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type OrderPaymentView, orderDisplayName } from '@marketplace/events/orders';
import { savedCardMessages } from '@marketplace/events/payments';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import useSWR from 'swr';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoader } from '../../../components/PageLoader';
import { PaymentStep } from '../../../components/payment/PaymentStep';
import { paymentMessages } from '../../../components/payment/payment-flow';
import { useSavedCardActions } from '../../../components/payment/use-saved-cards';
import { ApiError, apiErrorText, apiGet, apiPost } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { formatMoney } from '../../../lib/format-money';

type Returned = 'checking' | 'failed' | null;

/**
 * Back from the bank's authentication page (Stripe adds payment_intent and redirect_status to the
 * return URL): a passed authentication is checked with the server as any payment is; a failed one,
 * or a check that finds the payment not completed, says so above the card form.
 */
function useReturnFromAuthentication(orderId: string, onPaid: () => void) {
  const [searchParams, setSearchParams] = useSearchParams();
  const paymentIntentId = searchParams.get('payment_intent');
  const redirectStatus = searchParams.get('redirect_status');
  const [returned, setReturned] = useState<Returned>(paymentIntentId ? 'checking' : null);
  const checked = useRef(false);
  const paid = useRef(onPaid);
  paid.current = onPaid;

  useEffect(() => {
    if (!paymentIntentId || checked.current) return;
    checked.current = true;
    // The address keeps no client secret once read.
    setSearchParams({}, { replace: true });
    if (redirectStatus !== 'succeeded') {
      setReturned('failed');
      return;
    }
    apiPost(`/api/orders/${orderId}/payment-success`, { paymentIntentId })
      .then(() => paid.current())
      .catch(() => setReturned('failed'));
  }, [orderId, paymentIntentId, redirectStatus, setSearchParams]);
  return returned;
}

/** Pay later: the card payment for an order that was created but not paid (pending_payment). */
export function OrderPaymentPage() {
  const { orderId = '' } = useParams();
  const navigate = useNavigate();
  const { user } = useAuth();
  const { refresh: refreshSavedCards } = useSavedCardActions();
  const url = `/api/orders/${orderId}/payment`;
  const onPaid = () => {
    notifications.show({ color: 'green', message: savedCardMessages.paymentCompleted });
    void refreshSavedCards();
    navigate('/dashboard');
  };
  const returned = useReturnFromAuthentication(orderId, onPaid);
  // Never cached across visits: a client secret must be fresh and the order may have been paid meanwhile.
  const payment = useSWR(
    user && returned !== 'checking' ? [url, user.uid] : null,
    () => apiGet<OrderPaymentView>(url),
    {
      revalidateOnMount: true,
      dedupingInterval: 0,
    },
  );

  if (returned === 'checking') {
    return (
      <>
        <PageHeader title="Order Payment" />
        <PageLoader label="Checking your payment…" />
      </>
    );
  }

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
        onPaid={onPaid}
        {...(returned === 'failed'
          ? {
              startWithNewCard: true,
              notice: `${paymentMessages.notCompleted}. ${savedCardMessages.authenticationFailed}`,
            }
          : {})}
      />
    </>
  );
}
