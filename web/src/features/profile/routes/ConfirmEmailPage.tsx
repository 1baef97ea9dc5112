import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { emailChangeToken } from '@marketplace/events/security';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import useSWR from 'swr';
import { BRAND_NAME } from '../../../components/BrandMark';
import { EmailLinkFrame, EmailLinkProblem } from '../../../components/EmailLinkFrame';
import { PageLoader } from '../../../components/PageLoader';
import { ApiError, apiErrorText } from '../../../lib/api-client';
import { confirmEmailChange, readEmailChangeLink } from '../api/security';

const BAD_LINK = 'This link is not complete. Open the whole link from the email we sent to your new address.';

/**
 * The page an email-change link opens: it shows the new address (looking changes nothing) and a
 * button that moves the account to it. Works signed in or not, on any device.
 */
export function ConfirmEmailPage() {
  useDocumentTitle(`Confirm your new email · ${BRAND_NAME}`);
  const [params] = useSearchParams();
  const raw = params.get('token') ?? '';
  const token = emailChangeToken.safeParse(raw).success ? raw : null;
  const link = useSWR(token ? ['email-change', token] : null, () => readEmailChangeLink(token!), {
    revalidateOnFocus: false,
    shouldRetryOnError: (error: unknown) => !(error instanceof ApiError && error.status < 500),
  });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [movedTo, setMovedTo] = useState<string | null>(null);

  const confirm = async () => {
    if (!token) return;
    setBusy(true);
    setFailure(null);
    try {
      setMovedTo((await confirmEmailChange(token)).email);
    } catch (error) {
      setFailure(apiErrorText(error, 'Your email address could not be changed. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  if (!token) {
    return (
      <EmailLinkFrame>
        <EmailLinkProblem profileLabel="Go to your profile" message={BAD_LINK} />
      </EmailLinkFrame>
    );
  }
  if (movedTo) {
    return (
      <EmailLinkFrame>
        <Stack gap="sm">
          <Group gap="xs">
            <IconMailCheck size={28} aria-hidden="true" />
            <Title order={1} fz={24}>
              Your email address is changed
            </Title>
          </Group>
          <Text>
            Your account now uses <strong>{movedTo}</strong>. Sign in with it from now on (devices signed in with the
            old address are asked to sign in again); your password stays the same. We told your old address about the
            change.
          </Text>
          <Group>
            <Button component={Link} to="/profile">
              Go to your profile
            </Button>
          </Group>
        </Stack>
      </EmailLinkFrame>
    );
  }
  if (link.isLoading) return <PageLoader fullScreen label="Checking your link…" />;
  if (link.error || !link.data) {
    return (
      <EmailLinkFrame>
        <EmailLinkProblem
          profileLabel="Go to your profile"
          message={apiErrorText(link.error, 'We could not check this link. Please try again.')}
          onRetry={link.error instanceof ApiError && link.error.status < 500 ? undefined : () => void link.mutate()}
        />
      </EmailLinkFrame>
    );
  }
  return (
    <EmailLinkFrame>
      <Stack gap="sm">
        <Title order={1} fz={24}>
          Confirm your new email address
        </Title>
        <Text>
          Use <strong>{link.data.newEmail}</strong> as the email address of your {BRAND_NAME} account? You will sign in
          with it, and our emails will go there.
        </Text>
        {failure && (
          <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
            {failure}
          </Alert>
        )}
        <Group>
          <Button loading={busy} onClick={() => void confirm()}>
            Confirm new email address
          </Button>
        </Group>
      </Stack>
    </EmailLinkFrame>
  );
}
