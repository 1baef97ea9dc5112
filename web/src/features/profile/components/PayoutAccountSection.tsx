import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { EARNING_HOLD_DAYS, type PayoutAccountStatus, type PayoutAccountView } from '@marketplace/events/payouts';
import { IconBuildingBank } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { LoadFailedAlert } from '../../../components/PagedTable';
import { PageLoader } from '../../../components/PageLoader';
import { apiErrorText } from '../../../lib/api-client';
import { usePayoutAccount, usePayoutAccountActions } from '../api/payouts';
import { ProfileSection } from './ProfileSection';

export const payoutAccountMessages = {
  setUpFailed: 'Payouts could not be set up just now. Please try again.',
  refreshFailed: 'Your payout account could not be checked with Stripe just now.',
} as const;

const badges: Record<PayoutAccountStatus, { label: string; color: string }> = {
  not_set_up: { label: 'Not set up', color: 'gray' },
  onboarding: { label: 'Setup not finished', color: 'yellow' },
  needs_info: { label: 'Action needed', color: 'orange' },
  pending: { label: 'Being verified', color: 'blue' },
  enabled: { label: 'Payouts enabled', color: 'green' },
  restricted: { label: 'Restricted', color: 'red' },
};

/** What the status means for the editor, in a sentence, and the button that moves it on (if any). */
const explain = (account: PayoutAccountView): { text: ReactNode; action?: string } => {
  switch (account.status) {
    case 'not_set_up':
      return {
        text: `You are paid through Stripe. Set up a payout account and each order's earning goes to it once its ${EARNING_HOLD_DAYS}-day revision window closes, then on to your bank.`,
        action: 'Set up payouts',
      };
    case 'onboarding':
      return { text: 'You started setting up payouts. Finish with Stripe to be paid.', action: 'Continue setup' };
    case 'needs_info':
      return {
        text: (
          <>
            Stripe still needs: <strong>{account.requirements.join(', ')}</strong>. Your earnings wait until it has
            them.
          </>
        ),
        action: 'Continue setup',
      };
    case 'pending':
      return { text: 'Stripe is checking your details; payouts start once it has.' };
    case 'enabled':
      return {
        text: `Each order's earning goes to your Stripe account once its ${EARNING_HOLD_DAYS}-day revision window closes, and on to your bank on Stripe's schedule.`,
      };
    case 'restricted':
      return {
        text: `Stripe has restricted your account${account.disabledReason ? ` (${account.disabledReason})` : ''}. Your earnings wait until it is resolved.`,
        action: 'Update details',
      };
  }
};

/**
 * /profile's 'Payout account', for editors: whether Stripe can pay them, and what it still needs.
 * 'Set up payouts' goes to Stripe's hosted onboarding; back from it (?payouts=returned), the page
 * asks the server to read the account at Stripe, and shows what Stripe says.
 */
export function PayoutAccountSection() {
  const account = usePayoutAccount();
  const { startOnboarding, refreshAfterOnboarding } = usePayoutAccountActions();
  const [params, setParams] = useSearchParams();
  const [leaving, setLeaving] = useState(false);
  const [checking, setChecking] = useState(params.get('payouts') === 'returned');
  const checked = useRef(false);

  useEffect(() => {
    if (params.get('payouts') !== 'returned' || checked.current) return;
    checked.current = true;
    const next = new URLSearchParams(params);
    next.delete('payouts');
    setParams(next, { replace: true });
    refreshAfterOnboarding()
      .catch((error: unknown) =>
        notifications.show({ color: 'red', message: apiErrorText(error, payoutAccountMessages.refreshFailed) }),
      )
      .finally(() => setChecking(false));
  }, [params, setParams, refreshAfterOnboarding]);

  const setUp = async () => {
    setLeaving(true);
    try {
      await startOnboarding('profile');
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, payoutAccountMessages.setUpFailed) });
      setLeaving(false);
    }
  };

  let content: ReactNode;
  if (checking) content = <PageLoader label="Checking your payout account with Stripe…" />;
  else if (account.isLoading) content = <PageLoader label="Loading your payout account…" />;
  else if (!account.data) {
    content = <LoadFailedAlert what="payout account" error={account.error} retry={() => void account.mutate()} />;
  } else {
    const { text, action } = explain(account.data);
    const badge = badges[account.data.status];
    content = (
      <Stack gap="sm" align="flex-start">
        <Group gap="xs">
          <IconBuildingBank size={20} aria-hidden="true" />
          <Text fw={600}>Status</Text>
          <Badge variant="light" color={badge.color}>
            {badge.label}
          </Badge>
        </Group>
        <Text fz="sm">{text}</Text>
        {action && (
          <Button loading={leaving} onClick={() => void setUp()}>
            {action}
          </Button>
        )}
      </Stack>
    );
  }

  return (
    <ProfileSection title="Payout account" description="Where your earnings are paid, through Stripe.">
      {content}
    </ProfileSection>
  );
}
