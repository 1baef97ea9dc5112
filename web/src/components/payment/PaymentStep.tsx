import { Alert, Button, Checkbox, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { cardLabel, type SavedCardView } from '@marketplace/events/payments';
import { IconAlertCircle, IconCreditCard, IconLock } from '@tabler/icons-react';
import { type FormEvent, lazy, Suspense, useRef, useState } from 'react';
import { formatMoney } from '../../lib/format-money';
import { PageLoader } from '../PageLoader';
import { LocalTestCardForm } from './LocalTestCardForm';
import {
  type CardSubmitter,
  PaymentStopped,
  payForOrder,
  paymentMessages,
  payWithSavedCard,
  SavedCardRefused,
} from './payment-flow';
import { useSavedCardActions, useSavedCards } from './use-saved-cards';

// Stripe.js and its React bindings are downloaded only when a publishable key is configured.
const StripePaymentForm = lazy(() => import('./StripePaymentForm').then((m) => ({ default: m.StripePaymentForm })));

export interface PayableOrder {
  id: string;
  orderNumber: number;
  photoCount: number;
  totalAmountCents: number;
}

const expiry = (card: SavedCardView) => `${String(card.expMonth).padStart(2, '0')}/${String(card.expYear).slice(-2)}`;

function SavedCardSummary({ card }: { card: SavedCardView }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Group gap="sm">
        <IconCreditCard size={20} aria-hidden="true" />
        <Stack gap={0}>
          <Text fw={600}>{cardLabel(card)}</Text>
          <Text fz="sm" c="gray.7">
            Your default card · expires {expiry(card)}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}

/**
 * The card payment step shared by order creation and the pay-later page: the order, then either
 * the default saved card as one click ('Pay $X with Visa •••• 4242', with 'Use another card'
 * beside it) or the card form with 'Save this card for next time', Cancel and 'Pay $X'. It tells
 * the server once the card payment has succeeded. A card that asks for authentication takes the
 * browser to its bank's page, which comes back to the order's payment page.
 */
export function PaymentStep({
  order,
  clientSecret,
  onCancel,
  onPaid,
  onLeaving,
  startWithNewCard = false,
  notice,
}: {
  order: PayableOrder;
  clientSecret: string;
  onCancel: () => void;
  onPaid: () => void;
  /** Just before the browser leaves for the bank's authentication page. */
  onLeaving?: () => void;
  /** Show the card form first, even when there is a saved card (after a saved card failed). */
  startWithNewCard?: boolean;
  /** Why the photographer is paying again (an authentication that failed), shown above the form. */
  notice?: string;
}) {
  const submitterRef = useRef<CardSubmitter | null>(null);
  const savingAsked = useRef(false);
  const [paying, setPaying] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [useNewCard, setUseNewCard] = useState(startWithNewCard);
  const [saveCard, setSaveCard] = useState(false);
  const savedCards = useSavedCards();
  const { refresh: refreshSavedCards } = useSavedCardActions();
  const publishableKey = import.meta.env.VITE_STRIPE_PUBLISHABLE_KEY;
  const defaultCard = savedCards.data?.cards[0];
  const withSavedCard = !useNewCard && defaultCard ? defaultCard : null;
  const total = formatMoney(order.totalAmountCents);

  const fail = (error: unknown) => {
    // Anything else that went wrong reads 'Payment failed: {message}', the error's own words.
    const message =
      error instanceof PaymentStopped
        ? error.message
        : paymentMessages.unexpected(error instanceof Error ? error.message : String(error));
    if (error instanceof SavedCardRefused && error.useAnotherCard) setUseNewCard(true);
    setFailure(message);
    notifications.show({ color: 'red', message });
    setPaying(false);
  };

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    setPaying(true);
    setFailure(null);
    try {
      if (withSavedCard) {
        await payWithSavedCard({ orderId: order.id, paymentMethodId: withSavedCard.id, onLeaving });
      } else {
        // Told once ticked, and again if it is unticked after that; never named otherwise.
        const tellSaving = saveCard || savingAsked.current;
        savingAsked.current ||= saveCard;
        await payForOrder({
          orderId: order.id,
          clientSecret,
          submitter: submitterRef.current,
          ...(tellSaving ? { saveCard } : {}),
          onLeaving,
        });
        if (saveCard) void refreshSavedCards();
      }
      onPaid();
    } catch (error) {
      fail(error);
    }
  };

  const cardForm = publishableKey ? (
    <Suspense fallback={<PageLoader label="Loading the payment form…" />}>
      <StripePaymentForm publishableKey={publishableKey} clientSecret={clientSecret} submitterRef={submitterRef} />
    </Suspense>
  ) : (
    <LocalTestCardForm submitterRef={submitterRef} disabled={paying} />
  );

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
          {notice && (
            <Alert color="yellow" icon={<IconAlertCircle size={18} aria-hidden="true" />}>
              {notice}
            </Alert>
          )}
          {savedCards.isLoading ? (
            <PageLoader label="Loading your saved cards…" />
          ) : withSavedCard ? (
            <SavedCardSummary card={withSavedCard} />
          ) : (
            <>
              {cardForm}
              <Checkbox
                label="Save this card for next time"
                checked={saveCard}
                disabled={paying}
                onChange={(event) => setSaveCard(event.currentTarget.checked)}
              />
            </>
          )}
          {failure && (
            <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="space-between" align="center" gap="sm">
            <Text fw={600}>Total {total}</Text>
            <Group gap="sm">
              <Button variant="default" onClick={onCancel} disabled={paying}>
                Cancel
              </Button>
              {withSavedCard && (
                <Button variant="light" onClick={() => setUseNewCard(true)} disabled={paying}>
                  Use another card
                </Button>
              )}
              {!withSavedCard && defaultCard && (
                <Button variant="light" onClick={() => setUseNewCard(false)} disabled={paying}>
                  Use saved card
                </Button>
              )}
              <Button
                type="submit"
                loading={paying}
                disabled={savedCards.isLoading}
                leftSection={<IconLock size={16} aria-hidden="true" />}
              >
                {withSavedCard ? `Pay ${total} with ${cardLabel(withSavedCard)}` : `Pay ${total}`}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
