import { Alert, Button, Group, Modal, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { PASSWORD_MIN_LENGTH, type SecurityActivityView, securityActivityLabels } from '@marketplace/events/security';
import { IconAlertCircle, IconDeviceLaptop, IconKey, IconLogout, IconMail } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { SectionLoader } from '../../../components/PageLoader';
import { ApiError, apiErrorText } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { useCurrentUser } from '../../../lib/current-user';
import { ConfirmPasswordError } from '../api/confirm-password';
import {
  changePassword,
  requestEmailChange,
  SignInAgainError,
  signOutEverywhere,
  useSecurityActivity,
} from '../api/security';
import { DataExportCard } from './DataExportCard';
import { DeleteAccountCard } from './DeleteAccountCard';
import { ProfileSection } from './ProfileSection';

/** What each failure says, and under which field. */
interface Failure {
  field?: 'password' | 'newPassword' | 'repeated' | 'newEmail';
  message: string;
}

const failureOf = (error: unknown, fallback: string): Failure => {
  if (error instanceof SignInAgainError) return { message: error.message };
  if (error instanceof ConfirmPasswordError) return { field: 'password', message: error.message };
  if (error instanceof ApiError) {
    if (error.code === 'VALIDATION_FAILED' || error.code === 'WEAK_PASSWORD') {
      const path = Array.isArray(error.details) ? (error.details[0] as { path?: string })?.path : undefined;
      const field = path?.split('.')[1];
      if (field === 'newPassword' || field === 'newEmail') return { field, message: apiErrorText(error, fallback) };
      if (error.code === 'WEAK_PASSWORD') return { field: 'newPassword', message: apiErrorText(error, fallback) };
    }
    if (error.code === 'EMAIL_TAKEN' || error.code === 'SAME_EMAIL') {
      return { field: 'newEmail', message: apiErrorText(error, fallback) };
    }
  }
  return { message: apiErrorText(error, fallback) };
};

function FailureAlert({ failure }: { failure: Failure | null }) {
  if (!failure || failure.field) return null;
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
      {failure.message}
    </Alert>
  );
}

const fieldError = (failure: Failure | null, field: NonNullable<Failure['field']>) =>
  failure && failure.field === field ? failure.message : undefined;

/**
 * A dialog's submit: the checks first (a failure under its field), then the action, busy
 * meanwhile, and its failure in words (under a field when the server names one).
 */
function useDialogSubmit(fallback: string) {
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (check: () => Failure | null, action: () => Promise<void>) => {
    const refused = check();
    setFailure(refused);
    if (refused) return;
    setBusy(true);
    try {
      await action();
    } catch (error) {
      setFailure(failureOf(error, fallback));
    } finally {
      setBusy(false);
    }
  };
  return { failure, busy, submit, clear: () => setFailure(null) };
}

/** The dialogs' shared frame: a form with its fields, a Cancel and the action's button. */
function ActionModal({
  opened,
  title,
  busy,
  action,
  danger,
  onClose,
  onSubmit,
  children,
}: {
  opened: boolean;
  title: string;
  busy: boolean;
  action: string;
  danger?: boolean;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Modal opened={opened} onClose={() => !busy && onClose()} title={title} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {children}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} color={danger ? 'red' : undefined}>
              {action}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function ChangePasswordDialog({
  opened,
  email,
  onClose,
  onDone,
}: {
  opened: boolean;
  email: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const {
    failure,
    busy,
    submit: run,
    clear,
  } = useDialogSubmit('Your password could not be changed. Please try again.');

  const close = () => {
    setCurrentPassword('');
    setNewPassword('');
    setRepeated('');
    clear();
    onClose();
  };

  const submit = () =>
    run(
      () => {
        if (!currentPassword) return { field: 'password', message: 'Enter your current password.' };
        if (newPassword.length < PASSWORD_MIN_LENGTH) {
          return {
            field: 'newPassword',
            message: `Your new password must be at least ${PASSWORD_MIN_LENGTH} characters long`,
          };
        }
        if (newPassword !== repeated) return { field: 'repeated', message: 'The two new passwords are not the same.' };
        return null;
      },
      async () => {
        await changePassword({ email, currentPassword, newPassword });
        notifications.show({
          color: 'green',
          message: 'Your password was changed. Other devices need the new password to sign in again.',
        });
        onDone();
        close();
      },
    );

  return (
    <ActionModal
      opened={opened}
      title="Change password"
      busy={busy}
      action="Change password"
      onClose={close}
      onSubmit={() => void submit()}
    >
      <PasswordInput
        label="Current password"
        autoComplete="current-password"
        value={currentPassword}
        onChange={(event) => setCurrentPassword(event.currentTarget.value)}
        error={fieldError(failure, 'password')}
        data-autofocus
        required
      />
      <PasswordInput
        label="New password"
        description={`At least ${PASSWORD_MIN_LENGTH} characters, with letters and numbers.`}
        autoComplete="new-password"
        value={newPassword}
        onChange={(event) => setNewPassword(event.currentTarget.value)}
        error={fieldError(failure, 'newPassword')}
        required
      />
      <PasswordInput
        label="New password again"
        autoComplete="new-password"
        value={repeated}
        onChange={(event) => setRepeated(event.currentTarget.value)}
        error={fieldError(failure, 'repeated')}
        required
      />
      <FailureAlert failure={failure} />
    </ActionModal>
  );
}

function ChangeEmailDialog({
  opened,
  email,
  onClose,
  onDone,
}: {
  opened: boolean;
  email: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    failure,
    busy,
    submit: run,
    clear,
  } = useDialogSubmit('The confirmation email could not be sent. Please try again.');

  const close = () => {
    setNewEmail('');
    setPassword('');
    clear();
    setSentTo(null);
    onClose();
  };

  const submit = () =>
    run(
      () => {
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(newEmail.trim())) {
          return { field: 'newEmail', message: 'Enter a valid email address' };
        }
        return password ? null : { field: 'password', message: 'Enter your password.' };
      },
      async () => {
        const answer = await requestEmailChange({ password, newEmail: newEmail.trim() });
        setSentTo(answer.newEmail);
        onDone();
      },
    );

  if (sentTo) {
    return (
      <Modal opened={opened} onClose={close} title="Check your new inbox" centered>
        <Stack gap="md">
          <Text>
            We sent a link to <strong>{sentTo}</strong>. Open it within 24 hours to finish. Until then you keep using{' '}
            <strong>{email}</strong>.
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      </Modal>
    );
  }

  return (
    <ActionModal
      opened={opened}
      title="Change email"
      busy={busy}
      action="Send confirmation link"
      onClose={close}
      onSubmit={() => void submit()}
    >
      <Text fz="sm" c="gray.7">
        Your address now is {email}. We send a link to the new address; the change happens when you open it.
      </Text>
      <TextInput
        label="New email address"
        type="email"
        autoComplete="email"
        value={newEmail}
        onChange={(event) => setNewEmail(event.currentTarget.value)}
        error={fieldError(failure, 'newEmail')}
        data-autofocus
        required
      />
      <PasswordInput
        label="Password"
        description="To confirm it is you."
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.currentTarget.value)}
        error={fieldError(failure, 'password')}
        required
      />
      <FailureAlert failure={failure} />
    </ActionModal>
  );
}

function SignOutEverywhereDialog({
  opened,
  email,
  onClose,
  onDone,
}: {
  opened: boolean;
  email: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const [password, setPassword] = useState('');
  const {
    failure,
    busy,
    submit: run,
    clear,
  } = useDialogSubmit('Other devices could not be signed out. Please try again.');

  const close = () => {
    setPassword('');
    clear();
    onClose();
  };

  const submit = () =>
    run(
      () => (password ? null : { field: 'password', message: 'Enter your password.' }),
      async () => {
        await signOutEverywhere({ email, password });
        notifications.show({
          color: 'green',
          message: 'Every other device was signed out. This one stays signed in.',
        });
        onDone();
        close();
      },
    );

  return (
    <ActionModal
      opened={opened}
      title="Sign out of all other devices"
      busy={busy}
      action="Sign out other devices"
      danger
      onClose={close}
      onSubmit={() => void submit()}
    >
      <Text fz="sm">
        Every other browser, phone or tablet signed in to your account is signed out at once and needs your password to
        sign in again. This device stays signed in.
      </Text>
      <PasswordInput
        label="Password"
        description="To confirm it is you."
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.currentTarget.value)}
        error={fieldError(failure, 'password')}
        data-autofocus
        required
      />
      <FailureAlert failure={failure} />
    </ActionModal>
  );
}

const activityTime = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

function ActivityRow({ row }: { row: SecurityActivityView }) {
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Group justify="space-between" gap="xs" wrap="wrap" align="flex-start">
        <Stack gap={2}>
          <Text fw={600} fz="sm">
            {securityActivityLabels[row.kind] ?? row.kind}
          </Text>
          <Group gap={6} wrap="nowrap">
            <IconDeviceLaptop size={16} aria-hidden="true" />
            <Text fz="sm" c="gray.7">
              {row.browser}
              {row.ip ? ` · ${row.ip}` : ''}
            </Text>
          </Group>
        </Stack>
        <Text fz="sm" c="gray.7" component="time" dateTime={row.at}>
          {activityTime(row.at)}
        </Text>
      </Group>
    </Paper>
  );
}

function RecentActivity({ feed }: { feed: ReturnType<typeof useSecurityActivity> }) {
  const headingId = useId();
  let content: ReactNode;
  if (feed.isLoading) content = <SectionLoader label="Loading your security activity…" />;
  else if (feed.error && !feed.activity.length) {
    content = (
      <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />} title="Activity could not be loaded">
        <Stack gap="xs" align="flex-start">
          <Text fz="sm">
            {apiErrorText(feed.error, 'Your security activity could not be loaded. Please try again.')}
          </Text>
          <Button variant="light" color="red" size="xs" onClick={() => void feed.refresh()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  } else if (!feed.activity.length) {
    content = (
      <Text fz="sm" c="gray.7">
        No security activity yet. Password, email and sign-out changes will be listed here.
      </Text>
    );
  } else {
    content = (
      <Stack gap="xs">
        <Stack gap="xs" component="ul" aria-labelledby={headingId} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {feed.activity.map((row) => (
            <ActivityRow key={row.id} row={row} />
          ))}
        </Stack>
        {feed.hasMore && (
          <Button variant="subtle" size="xs" onClick={() => void feed.loadMore()} loading={feed.isLoadingMore}>
            Show older activity
          </Button>
        )}
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      <Title order={3} fz="md" id={headingId}>
        Recent security activity
      </Title>
      {content}
    </Stack>
  );
}

type Dialog = 'password' | 'email' | 'sign-out' | null;

/**
 * /profile's 'Security': change the password or the email (each asks for the password first, for
 * the server's recent-sign-in rule), sign out of all other devices, and the account's recent
 * security activity (when, what, from which browser).
 */
export function SecuritySection() {
  const { user } = useAuth();
  const { data: me } = useCurrentUser();
  const feed = useSecurityActivity();
  const [dialog, setDialog] = useState<Dialog>(null);
  // The account's address as the marketplace holds it (Firebase follows a change within seconds).
  const email = me?.email ?? user?.email ?? '';
  const close = () => setDialog(null);
  const refresh = () => void feed.refresh();

  return (
    <ProfileSection title="Security" description="Your password, your sign-in email and the devices signed in.">
      <Group gap="sm" wrap="wrap">
        <Button
          variant="light"
          leftSection={<IconKey size={16} aria-hidden="true" />}
          onClick={() => setDialog('password')}
        >
          Change password
        </Button>
        <Button
          variant="light"
          leftSection={<IconMail size={16} aria-hidden="true" />}
          onClick={() => setDialog('email')}
        >
          Change email
        </Button>
        <Button
          variant="light"
          color="red"
          leftSection={<IconLogout size={16} aria-hidden="true" />}
          onClick={() => setDialog('sign-out')}
        >
          Sign out of all other devices
        </Button>
      </Group>
      {/* ACCOUNT DATA AND DELETION: 'Download my data' and 'Delete my account' go here (their own components). */}
      <DataExportCard />
      <DeleteAccountCard />
      {/* END ACCOUNT DATA AND DELETION */}
      <RecentActivity feed={feed} />
      <ChangePasswordDialog opened={dialog === 'password'} email={email} onClose={close} onDone={refresh} />
      <ChangeEmailDialog opened={dialog === 'email'} email={email} onClose={close} onDone={refresh} />
      <SignOutEverywhereDialog opened={dialog === 'sign-out'} email={email} onClose={close} onDone={refresh} />
    </ProfileSection>
  );
}
