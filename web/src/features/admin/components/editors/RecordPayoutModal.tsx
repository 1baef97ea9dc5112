import { Alert, Button, Group, Loader, Modal, Stack, Table, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdminEditorView, PayoutView } from '@marketplace/events/admin';
import { useState } from 'react';
import { ulid } from 'ulid';
import { apiErrorText } from '../../../../lib/api-client';
import { formatDate } from '../../../../lib/format-date';
import { formatMoney } from '../../../../lib/format-money';
import { olderPayouts, useEditorPayouts, useEditorWrites } from '../../api/editors';
import { MoneyInput } from '../MoneyInput';

/**
 * Record Payout: moves an amount, at most what is pending, from the editor's pending earnings to
 * paid out, and lists the payouts made so far, newest first, a page at a time.
 */
export function RecordPayoutModal({ editor, onClose }: { editor: AdminEditorView; onClose: () => void }) {
  const payouts = useEditorPayouts(editor.id, true);
  // Older pages, added below the newest one as the admin asks for them.
  const [older, setOlder] = useState<{ payouts: PayoutView[]; nextCursor: string | null } | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const olderCursor = older ? older.nextCursor : (payouts.data?.nextCursor ?? null);
  const showOlder = async () => {
    if (!olderCursor) return;
    setLoadingOlder(true);
    try {
      const page = await olderPayouts(editor.id, olderCursor);
      setOlder({ payouts: [...(older?.payouts ?? []), ...page.payouts], nextCursor: page.nextCursor });
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'Failed to load payouts') });
    } finally {
      setLoadingOlder(false);
    }
  };
  const { recordPayout } = useEditorWrites();
  const pendingCents = payouts.data?.pendingPayoutCents ?? editor.pendingPayoutCents;
  const [amountCents, setAmountCents] = useState(pendingCents);
  const [note, setNote] = useState('');
  // One id per opening of the dialog: a retried click books the payout once.
  const [payoutId] = useState(() => ulid());
  const [saving, setSaving] = useState(false);
  const [recorded, setRecorded] = useState(false);
  const nothingPending = pendingCents === 0;
  const amountError =
    amountCents > pendingCents
      ? `At most ${formatMoney(pendingCents)} is pending`
      : amountCents <= 0
        ? 'Enter an amount'
        : null;

  const submit = async () => {
    if (amountError) return;
    setSaving(true);
    try {
      await recordPayout(editor.id, { amountCents, payoutId, ...(note.trim() ? { note: note.trim() } : {}) });
      notifications.show({ color: 'green', message: `Payout of ${formatMoney(amountCents)} recorded` });
      setRecorded(true);
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'Failed to record payout') });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title="Record Payout"
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text fz="sm" c="gray.7">
          {editor.displayName || editor.email}: {formatMoney(pendingCents)} pending,{' '}
          {formatMoney(payouts.data?.paidOutCents ?? editor.paidOutCents)} paid out.
        </Text>
        {recorded ? (
          <Alert color="green">The payout is recorded and listed below.</Alert>
        ) : nothingPending ? (
          <Text fz="sm">Nothing is pending for this editor.</Text>
        ) : (
          <>
            <MoneyInput
              label="Amount"
              withAsterisk
              value={amountCents}
              onChange={setAmountCents}
              error={amountError}
              maw={240}
            />
            <Textarea
              label="Note"
              description="Optional, e.g. the bank transfer reference"
              autosize
              minRows={2}
              maxLength={500}
              value={note}
              onChange={(event) => setNote(event.currentTarget.value)}
            />
          </>
        )}
        <Stack gap={4}>
          <Text fw={600} fz="sm">
            Payout history
          </Text>
          {payouts.error ? (
            <Alert color="red">{apiErrorText(payouts.error, 'Failed to load payouts')}</Alert>
          ) : !payouts.data ? (
            <Group justify="center" role="status" aria-label="Loading payouts">
              <Loader size="sm" aria-hidden="true" />
            </Group>
          ) : payouts.data.payouts.length === 0 ? (
            <Text fz="sm" c="gray.7">
              No payouts yet.
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={360}>
              <Table aria-label="Payout history" striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Date</Table.Th>
                    <Table.Th>Amount</Table.Th>
                    <Table.Th>Note</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {[...payouts.data.payouts, ...(older?.payouts ?? [])].map((payout) => (
                    <Table.Tr key={payout.id}>
                      <Table.Td>{formatDate(payout.paidAt)}</Table.Td>
                      <Table.Td>{formatMoney(payout.amountCents)}</Table.Td>
                      <Table.Td>{payout.note ?? '—'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {olderCursor && (
            <Group justify="center">
              <Button variant="subtle" size="xs" onClick={showOlder} loading={loadingOlder}>
                Show older payouts
              </Button>
            </Group>
          )}
        </Stack>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {recorded ? 'Close' : 'Cancel'}
          </Button>
          {!recorded && !nothingPending && (
            <Button onClick={submit} loading={saving} disabled={Boolean(amountError)}>
              Record Payout
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
