import { Alert, Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { AdminEditorView } from '@marketplace/events/admin';
import { IconAlertCircle } from '@tabler/icons-react';
import { EarningsTable } from '../../../../components/EarningsTable';
import { PageLoader } from '../../../../components/PageLoader';
import { apiErrorText } from '../../../../lib/api-client';
import { useEditorEarnings } from '../../api/editors';
import { PayoutAccountBadge } from './PayoutAccountBadge';

/**
 * An editor's transfers: each order's earning, newest first, with where it is (held, due and why
 * Stripe refused it, sent, paid out, reversed), a page at a time; and their payout account.
 */
export function EditorTransfersModal({ editor, onClose }: { editor: AdminEditorView; onClose: () => void }) {
  const name = editor.displayName || editor.email;
  const pages = useEditorEarnings(editor.id, true);
  const earnings = pages.data?.flatMap((page) => page.earnings) ?? [];
  const last = pages.data?.at(-1);
  const refused = earnings.filter((e) => (e.state === 'due' || e.state === 'held') && e.lastError).length;
  return (
    <Modal opened onClose={onClose} title={`Transfers of ${name}`} size="xl" centered>
      <Stack gap="md">
        <Group gap="xs">
          <Text fz="sm" fw={600}>
            Payout account
          </Text>
          <PayoutAccountBadge account={editor.payoutAccount} />
          {editor.payoutAccount.requirements.length > 0 && (
            <Text fz="sm" c="gray.7">
              Stripe needs: {editor.payoutAccount.requirements.join(', ')}
            </Text>
          )}
        </Group>
        {refused > 0 && (
          <Alert color="orange" icon={<IconAlertCircle size={18} aria-hidden="true" />} title="Transfers refused">
            {refused === 1 ? 'One transfer was' : `${refused} transfers were`} refused by Stripe and will be tried again
            by itself; Stripe's reason is beside each.
          </Alert>
        )}
        {pages.isLoading ? (
          <PageLoader label="Loading transfers…" />
        ) : pages.error && !earnings.length ? (
          <Alert color="red" title="Transfers could not be loaded">
            {apiErrorText(pages.error, 'Failed to load transfers')}
          </Alert>
        ) : earnings.length === 0 ? (
          <Text fz="sm" c="gray.7">
            No earnings yet.
          </Text>
        ) : (
          <EarningsTable earnings={earnings} label={`Earnings of ${name}`} who="admin" />
        )}
        {last?.nextCursor && (
          <Button
            variant="default"
            loading={pages.isValidating}
            onClick={() => void pages.setSize(pages.size + 1)}
            style={{ alignSelf: 'flex-start' }}
          >
            Show more
          </Button>
        )}
        {pages.error && earnings.length > 0 && (
          <Badge color="red" variant="light">
            {apiErrorText(pages.error, 'More transfers could not be loaded')}
          </Badge>
        )}
      </Stack>
    </Modal>
  );
}
