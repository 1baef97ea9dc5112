import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageLoader } from '../../../components/PageLoader';
import { apiErrorText } from '../../../lib/api-client';
import { usePayoutAccountActions } from '../api/payouts';

/**
 * Where Stripe sends an editor whose onboarding link expired or was left ('Come back later'): a
 * fresh link is asked for at once and the browser goes back to Stripe with it.
 */
export function PayoutRefreshPage() {
  const [params] = useSearchParams();
  const { startOnboarding } = usePayoutAccountActions();
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(false);
  const returnTo = params.get('returnTo') === 'editor' ? 'editor' : 'profile';

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    startOnboarding(returnTo).catch((failure: unknown) =>
      setError(apiErrorText(failure, 'A new link to Stripe could not be made just now. Please try again.')),
    );
  }, [returnTo, startOnboarding]);

  if (!error) return <PageLoader label="Taking you back to Stripe to finish setting up payouts…" />;
  return (
    <Stack maw={640}>
      <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />} title="Payouts could not be set up">
        <Text fz="sm">{error}</Text>
      </Alert>
      <Anchor component={Link} to="/profile">
        Back to your profile
      </Anchor>
    </Stack>
  );
}
