import { Alert, Button, Group, Loader, Modal, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { DATA_EXPORT_LINK_DAYS, type DataExportView } from '@marketplace/events/account-data';
import { IconAlertCircle, IconDownload, IconFileZip } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useSWRConfig } from 'swr';
import { unstable_serialize } from 'swr/infinite';
import { SectionLoader } from '../../../components/PageLoader';
import { ApiError, apiErrorText } from '../../../lib/api-client';
import { requestDataExport, useDataExport } from '../api/account-data';
import { ConfirmPasswordError } from '../api/confirm-password';
import { SECURITY_ACTIVITY_URL } from '../api/security';

type Latest = NonNullable<DataExportView['export']>;

const when = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

const WHAT_IS_IN_IT =
  'Your profile, your orders and each step of them, payments, refunds and receipts, share links, feedback and security activity, as JSON files, with links to your photos.';

function RequestDialog({
  opened,
  onClose,
  onDone,
}: {
  opened: boolean;
  onClose: () => void;
  onDone: (view: DataExportView) => void;
}) {
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setPassword('');
    setPasswordError(undefined);
    setFailure(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPasswordError(undefined);
    setFailure(null);
    if (!password) return setPasswordError('Enter your password.');
    setBusy(true);
    try {
      onDone(await requestDataExport(password));
      close();
    } catch (error) {
      if (error instanceof ConfirmPasswordError) setPasswordError(error.message);
      else setFailure(apiErrorText(error, 'Your data could not be requested. Please try again.'));
      // Another request of this account is being prepared: show it.
      if (error instanceof ApiError && error.status === 409) onDone({ export: null });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={() => !busy && close()} title="Download my data" centered>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <Text fz="sm">{WHAT_IS_IN_IT}</Text>
          <Text fz="sm">
            We email you a link when the file is ready, usually within minutes. The link works for{' '}
            {DATA_EXPORT_LINK_DAYS} days.
          </Text>
          <PasswordInput
            label="Password"
            description="To confirm it is you."
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={passwordError}
            data-autofocus
            required
          />
          {failure && (
            <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Prepare my data
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function State({ latest, onAsk }: { latest: Latest | null; onAsk: () => void }) {
  const ask = (label: string) => (
    <Group>
      <Button variant="light" leftSection={<IconFileZip size={16} aria-hidden="true" />} onClick={onAsk}>
        {label}
      </Button>
    </Group>
  );
  if (!latest) {
    return (
      <Stack gap="xs">
        <Text fz="sm" c="gray.7">
          Get a copy of your data as a zip file. {WHAT_IS_IN_IT}
        </Text>
        {ask('Download my data')}
      </Stack>
    );
  }
  switch (latest.status) {
    case 'preparing':
      return (
        <Group gap="sm" wrap="nowrap" role="status">
          <Loader size="sm" aria-hidden="true" />
          <Stack gap={0}>
            <Text fw={600} fz="sm">
              Preparing your data…
            </Text>
            <Text fz="sm" c="gray.7">
              Asked for {when(latest.requestedAt)}. We email you a link when it is ready; you can leave this page.
            </Text>
          </Stack>
        </Group>
      );
    case 'ready':
      return (
        <Stack gap="xs">
          <Text fz="sm" role="status">
            Your data is ready
            {latest.sizeBytes !== null ? ` (${size(latest.sizeBytes)})` : ''}. The file and its link work until{' '}
            {latest.expiresAt ? when(latest.expiresAt) : 'a few days from now'}.
          </Text>
          <Group gap="sm" wrap="wrap">
            {latest.url && (
              <Button
                component="a"
                href={latest.url}
                download={latest.filename ?? undefined}
                leftSection={<IconDownload size={16} aria-hidden="true" />}
              >
                Download your data
              </Button>
            )}
            <Button variant="default" onClick={onAsk}>
              Prepare a new copy
            </Button>
          </Group>
        </Stack>
      );
    case 'expired':
      return (
        <Stack gap="xs">
          <Text fz="sm" c="gray.7">
            Your last copy (asked for {when(latest.requestedAt)}) has expired and was deleted.
          </Text>
          {ask('Download my data')}
        </Stack>
      );
    default:
      return (
        <Stack gap="xs">
          <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />}>
            Your data could not be prepared. Please ask again; if it fails again, send us feedback.
          </Alert>
          {ask('Try downloading again')}
        </Stack>
      );
  }
}

/**
 * 'Download my data' in /profile's Security section: asks for the password, then shows the request
 * ('Preparing your data…', checked again every few seconds) and the link once the zip is ready.
 */
export function DataExportCard() {
  const headingId = useId();
  const data = useDataExport();
  const { mutate } = useSWRConfig();
  const [asking, setAsking] = useState(false);
  // The request is a row of the security activity the section lists: read it again.
  const refreshActivity = () => void mutate(unstable_serialize(() => SECURITY_ACTIVITY_URL));

  let content: ReactNode;
  if (data.isLoading) content = <SectionLoader label="Loading your data download…" />;
  else if (data.error && !data.latest) {
    content = (
      <Alert
        color="red"
        icon={<IconAlertCircle size={18} aria-hidden="true" />}
        title="Could not load your data download"
      >
        <Stack gap="xs" align="flex-start">
          <Text fz="sm">{apiErrorText(data.error, 'Please try again in a moment.')}</Text>
          <Button variant="light" color="red" size="xs" onClick={() => void data.refresh()}>
            Load again
          </Button>
        </Stack>
      </Alert>
    );
  } else content = <State latest={data.latest} onAsk={() => setAsking(true)} />;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={3} fz="md" id={headingId}>
          Download my data
        </Title>
        {content}
        <Text fz="xs" c="gray.7">
          Photos are listed with links to download them rather than copied into the file.
        </Text>
      </Stack>
      <RequestDialog
        opened={asking}
        onClose={() => setAsking(false)}
        onDone={(view) => {
          if (view.export) {
            data.replace(view);
            refreshActivity();
          } else void data.refresh();
        }}
      />
    </Paper>
  );
}
