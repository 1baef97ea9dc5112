import { Alert, Box, Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { emailChangeToken } from '@marketplace/events/security';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import useSWR from 'swr';
import { BRAND_NAME, BrandMark } from '../../../components/BrandMark';
import { PageLoader } from '../../../components/PageLoader';
import { ApiError, apiErrorText } from '../../../lib/api-client';
import { confirmEmailChange, readEmailChangeLink } from '../api/security';

const BAD_LINK = 'This link is not complete. Open the whole link from the email we sent to your new address.';

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <Center component="main" mih="100dvh" bg="gray.0" p={{ base: 'md', sm: 'xl' }}>
      <Stack align="center" gap="xl" w="100%" maw={460} py="xl">
        <BrandMark />
        <Box w="100%">
          <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }}>
            {children}
          </Paper>
        </Box>
      </Stack>
    </Center>
  );
}

function Problem({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <Stack gap="sm">
      <Title order={1} fz={24}>
        This link cannot be used
      </Title>
      <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />}>
        {message}
      </Alert>
      <Group gap="sm">
        {onRetry && (
          <Button variant="default" onClick={onRetry}>
            Try again
          </Button>
        )}
        <Button component={Link} to="/profile">
          Go to your profile
        </Button>
      </Group>
    </Stack>
  );
}

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
      <Frame>
        <Problem message={BAD_LINK} />
      </Frame>
    );
  }
  if (movedTo) {
    return (
      <Frame>
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
      </Frame>
    );
  }
  if (link.isLoading) return <PageLoader fullScreen label="Checking your link…" />;
  if (link.error || !link.data) {
    return (
      <Frame>
        <Problem
          message={apiErrorText(link.error, 'We could not check this link. Please try again.')}
          onRetry={link.error instanceof ApiError && link.error.status < 500 ? undefined : () => void link.mutate()}
        />
      </Frame>
    );
  }
  return (
    <Frame>
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
    </Frame>
  );
}
