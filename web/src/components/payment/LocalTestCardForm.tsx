import { Alert, Group, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { IconCreditCard, IconInfoCircle } from '@tabler/icons-react';
import { type RefObject, useEffect, useRef, useState } from 'react';
import {
  checkTestCard,
  confirmWithLocalStripe,
  formatCardNumber,
  formatExpiry,
  localStripeSettings,
  type TestCardDetails,
} from './local-test-card';
import type { CardSubmitter } from './payment-flow';

/**
 * The card form when no Stripe publishable key is configured (local development and tests):
 * Stripe.js cannot load offline, so this form confirms against the local Stripe fake instead.
 */
export function LocalTestCardForm({
  submitterRef,
  disabled,
}: {
  submitterRef: RefObject<CardSubmitter | null>;
  disabled?: boolean;
}) {
  const [card, setCard] = useState<TestCardDetails>({ cardNumber: '', expiry: '', cvc: '' });
  const latestCard = useRef(card);
  latestCard.current = card;

  useEffect(() => {
    const settings = localStripeSettings();
    submitterRef.current = {
      isReady: () => Boolean(settings.url),
      validate: async () => {
        const error = checkTestCard(latestCard.current);
        return error ? { error } : {};
      },
      confirm: (clientSecret, { returnUrl }) =>
        confirmWithLocalStripe(clientSecret, latestCard.current, {
          url: settings.url ?? '',
          publishableKey: settings.publishableKey,
          returnUrl,
        }),
    };
    return () => {
      submitterRef.current = null;
    };
  }, [submitterRef]);

  return (
    <Tabs defaultValue="card" variant="outline">
      <Tabs.List>
        <Tabs.Tab value="card" leftSection={<IconCreditCard size={16} aria-hidden="true" />}>
          Card
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="card" pt="md">
        <Stack gap="sm">
          <TextInput
            label="Card number"
            placeholder="1234 1234 1234 1234"
            inputMode="numeric"
            autoComplete="cc-number"
            value={card.cardNumber}
            disabled={disabled}
            onChange={(event) => {
              const cardNumber = formatCardNumber(event.currentTarget.value);
              setCard((current) => ({ ...current, cardNumber }));
            }}
          />
          <Group grow gap="sm" align="flex-start">
            <TextInput
              label="Expiry"
              placeholder="MM / YY"
              inputMode="numeric"
              autoComplete="cc-exp"
              value={card.expiry}
              disabled={disabled}
              onChange={(event) => {
                const expiry = formatExpiry(event.currentTarget.value);
                setCard((current) => ({ ...current, expiry }));
              }}
            />
            <TextInput
              label="CVC"
              placeholder="123"
              inputMode="numeric"
              autoComplete="cc-csc"
              maxLength={4}
              value={card.cvc}
              disabled={disabled}
              onChange={(event) => {
                const cvc = event.currentTarget.value.replace(/\D/g, '');
                setCard((current) => ({ ...current, cvc }));
              }}
            />
          </Group>
          <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} aria-hidden="true" />} p="sm">
            <Text fz="sm">
              Local test card form: use 4242 4242 4242 4242 for a successful payment, 4000 0000 0000 0002 for a declined
              card or 4000 0025 0000 3155 for a card that asks for authentication, with any future expiry and any CVC.
            </Text>
          </Alert>
        </Stack>
      </Tabs.Panel>
    </Tabs>
  );
}
