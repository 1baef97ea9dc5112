import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { UnsubscribeView } from '@marketplace/events/notifications';
import { IconAlertCircle, IconMailOff } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import useSWR from 'swr';
import { BRAND_NAME } from '../../../components/BrandMark';
import { EmailLinkFrame, EmailLinkProblem } from '../../../components/EmailLinkFrame';
import { PageLoader } from '../../../components/PageLoader';
import { ApiError, apiErrorText } from '../../../lib/api-client';
import { readUnsubscribeLink, unsubscribe } from '../api/unsubscribe';

const BAD_LINK = 'This unsubscribe link is not complete. Open the whole link from the email.';

const ProfileLink = ({ children }: { children: ReactNode }) => (
  <Button component={Link} to="/profile" variant="default">
    {children}
  </Button>
);

function Done({ label }: { label: string }) {
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="nowrap">
        <IconMailOff size={28} aria-hidden="true" />
        <Title order={1} fz={24}>
          You are unsubscribed
        </Title>
      </Group>
      <Text role="status">You will no longer get “{label}” emails.</Text>
      <Text fz="sm" c="gray.7">
        Changed your mind? You can turn them back on under Notifications on your profile.
      </Text>
      <Group>
        <ProfileLink>Go to your profile</ProfileLink>
      </Group>
    </Stack>
  );
}

/**
 * The page an email's 'Unsubscribe' link opens, signed in or not: it says which email the link is
 * about, and one press turns that email off. Opening it changes nothing (mail scanners open every
 * link in an email), only the button does.
 */
export function UnsubscribePage() {
  useDocumentTitle(`Unsubscribe · ${BRAND_NAME}`);
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() || null;
  const link = useSWR(token ? ['unsubscribe', token] : null, () => readUnsubscribeLink(token!), {
    revalidateOnFocus: false,
    shouldRetryOnError: (error: unknown) => !(error instanceof ApiError && error.status < 500),
  });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<UnsubscribeView | null>(null);

  const turnOff = async () => {
    if (!token) return;
    setBusy(true);
    setFailure(null);
    try {
      setDone(await unsubscribe(token));
    } catch (error) {
      setFailure(apiErrorText(error, 'You were not unsubscribed. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  if (!token)
    return (
      <EmailLinkFrame>
        <EmailLinkProblem profileLabel="Manage your emails" message={BAD_LINK} />
      </EmailLinkFrame>
    );
  if (link.error) {
    const final = link.error instanceof ApiError && link.error.status < 500;
    return (
      <EmailLinkFrame>
        <EmailLinkProblem
          profileLabel="Manage your emails"
          message={apiErrorText(link.error, 'We could not read this link. Please try again.')}
          {...(final ? {} : { onRetry: () => void link.mutate() })}
        />
      </EmailLinkFrame>
    );
  }
  if (!link.data) return <PageLoader fullScreen label="Reading your unsubscribe link…" />;
  if (done)
    return (
      <EmailLinkFrame>
        <Done label={done.label} />
      </EmailLinkFrame>
    );
  if (!link.data.enabled)
    return (
      <EmailLinkFrame>
        <Done label={link.data.label} />
      </EmailLinkFrame>
    );
  return (
    <EmailLinkFrame>
      <Stack gap="sm">
        <Title order={1} fz={24}>
          Unsubscribe from “{link.data.label}” emails?
        </Title>
        <Text>
          You will stop getting “{link.data.label}” emails. Receipts, security emails and your other emails are not
          affected.
        </Text>
        {failure && (
          <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />}>
            {failure}
          </Alert>
        )}
        <Group gap="sm">
          <Button color="red" loading={busy} onClick={() => void turnOff()}>
            Unsubscribe
          </Button>
          <ProfileLink>Manage all your emails</ProfileLink>
        </Group>
      </Stack>
    </EmailLinkFrame>
  );
}
