import { Alert, Button, Group, List, Modal, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { ACCOUNT_PURGE_AFTER_DAYS, DELETE_CONFIRMATION } from '@marketplace/events/account-data';
import { IconAlertCircle, IconTrash } from '@tabler/icons-react';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { apiErrorText } from '../../../lib/api-client';
import { deleteAccount } from '../api/account-data';
import { ConfirmPasswordError } from '../api/confirm-password';

/** Where the browser lands once the account is deleted and signed out. */
export const ACCOUNT_DELETED_PATH = '/account-deleted';

/** What deletion removes and what it keeps, said before anyone confirms (docs/decisions/0106). */
export function WhatDeletionKeeps() {
  return (
    <Stack gap="xs">
      <Text fz="sm">
        Your account is closed at once: you are signed out and cannot sign in again. After {ACCOUNT_PURGE_AFTER_DAYS}{' '}
        days we remove your name, phone, profile picture, business name and logo, saved cards and your email address.
      </Text>
      <Text fz="sm">We keep, without your profile:</Text>
      <List fz="sm" spacing={4}>
        <List.Item>
          Your orders and their photos, because the photographer or editor on the other side of each order still needs
          them.
        </List.Item>
        <List.Item>Payments, refunds and receipts, because tax law requires us to keep invoices.</List.Item>
      </List>
      <Text fz="sm" c="gray.7">
        Orders in progress must be finished first: a photographer's paid orders must be delivered or cancelled, and an
        editor's claimed orders delivered. Want a copy of your data? Download it before deleting.
      </Text>
    </Stack>
  );
}

interface Failure {
  field?: 'password' | 'confirmation';
  message: string;
}

function DeleteDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setPassword('');
    setConfirmation('');
    setFailure(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!password) return setFailure({ field: 'password', message: 'Enter your password.' });
    if (confirmation !== DELETE_CONFIRMATION) {
      return setFailure({
        field: 'confirmation',
        message: `Type ${DELETE_CONFIRMATION} in capital letters to confirm.`,
      });
    }
    setBusy(true);
    try {
      const deleted = await deleteAccount({ password, confirmation });
      // Off the signed-in pages first, so nothing of them asks the API as a deleted account; the
      // page it lands on signs out once it shows (signing out here could let the signed-in pages'
      // guard, still on screen, send the browser to /login instead).
      await navigate(ACCOUNT_DELETED_PATH, { replace: true, state: deleted });
    } catch (error) {
      setBusy(false);
      if (error instanceof ConfirmPasswordError) return setFailure({ field: 'password', message: error.message });
      setFailure({ message: apiErrorText(error, 'Your account could not be deleted. Please try again.') });
    }
  };

  const fieldError = (field: Failure['field']) => (failure && failure.field === field ? failure.message : undefined);

  return (
    <Modal opened={opened} onClose={() => !busy && close()} title="Delete my account" centered size="lg">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <WhatDeletionKeeps />
          <PasswordInput
            label="Password"
            description="To confirm it is you."
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={fieldError('password')}
            data-autofocus
            required
          />
          <TextInput
            label={`Type ${DELETE_CONFIRMATION} to confirm`}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            value={confirmation}
            onChange={(event) => setConfirmation(event.currentTarget.value)}
            error={fieldError('confirmation')}
            required
          />
          {failure && !failure.field && (
            <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
              {failure.message}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={busy}>
              Delete my account
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** 'Delete my account' in /profile's Security section: what is kept and why, then the password and 'DELETE'. */
export function DeleteAccountCard() {
  const headingId = useId();
  const [open, setOpen] = useState(false);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={3} fz="md" id={headingId}>
          Delete my account
        </Title>
        <WhatDeletionKeeps />
        <Group>
          <Button
            variant="light"
            color="red"
            leftSection={<IconTrash size={16} aria-hidden="true" />}
            onClick={() => setOpen(true)}
          >
            Delete my account
          </Button>
        </Group>
      </Stack>
      <DeleteDialog opened={open} onClose={() => setOpen(false)} />
    </Paper>
  );
}
