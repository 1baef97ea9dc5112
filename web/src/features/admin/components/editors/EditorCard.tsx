import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { AdminEditorView } from '@marketplace/events/admin';
import type { UserStatus } from '@marketplace/events/roles';
import { IconArrowsTransferUp, IconCash, IconEdit } from '@tabler/icons-react';
import { useId } from 'react';
import { formatDate } from '../../../../lib/format-date';
import { formatMoney } from '../../../../lib/format-money';
import { EditorStatsBox } from './EditorStatsBox';
import { PayoutAccountBadge } from './PayoutAccountBadge';

const statusColour = (status: UserStatus) =>
  status === 'verified' ? 'green' : status === 'invited' ? 'yellow' : 'red';

interface EditorCardProps {
  editor: AdminEditorView;
  onEditRates: () => void;
  onRecordPayout: () => void;
  onShowTransfers: () => void;
}

/** One editor: who they are, their status, performance, rates and what they are owed. */
export function EditorCard({ editor, onEditRates, onRecordPayout, onShowTransfers }: EditorCardProps) {
  const nameId = useId();
  // Stripe pays an editor whose account can take transfers: a payout by hand beside it would pay twice.
  const paidThroughStripe = editor.payoutAccount.status === 'enabled';
  return (
    <Paper component="li" withBorder p={{ base: 'md', sm: 'lg' }} radius="lg" aria-labelledby={nameId}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap="xs">
              <Title id={nameId} order={3} fz="lg" style={{ overflowWrap: 'anywhere' }}>
                {editor.displayName || editor.email}
              </Title>
              <Badge color={statusColour(editor.status)} variant="light">
                {editor.status}
              </Badge>
            </Group>
            <Text fz="sm" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
              {editor.email}
            </Text>
            {editor.invitedAt && (
              <Text fz="sm" c="gray.7">
                Invited {formatDate(editor.invitedAt)}
              </Text>
            )}
          </Stack>
          <Button variant="light" leftSection={<IconEdit size={16} aria-hidden="true" />} onClick={onEditRates}>
            Edit All Rates
          </Button>
        </Group>
        <EditorStatsBox editorId={editor.id} />
        <Stack gap={4}>
          <Text fw={600} fz="sm">
            Job type rates
          </Text>
          {editor.rates.length === 0 ? (
            <Text fz="sm" c="gray.7">
              No rates set
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={320}>
              <Table aria-label={`Rates of ${editor.displayName || editor.email}`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Job type</Table.Th>
                    <Table.Th ta="right">Per photo</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {editor.rates.map((rate) => (
                    <Table.Tr key={rate.id}>
                      <Table.Td>
                        <Text fz="sm" fw={500}>
                          {rate.jobTypeName}
                        </Text>
                        {rate.jobTypeDescription && (
                          <Text fz="xs" c="gray.7">
                            {rate.jobTypeDescription}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td ta="right">{formatMoney(rate.ratePerPhotoCents)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Text fz="sm">
            Pending payout <strong>{formatMoney(editor.pendingPayoutCents)}</strong> · Paid out{' '}
            <strong>{formatMoney(editor.paidOutCents)}</strong>
          </Text>
          <Group gap="xs">
            <Button
              variant="default"
              leftSection={<IconArrowsTransferUp size={16} aria-hidden="true" />}
              onClick={onShowTransfers}
            >
              Transfers
            </Button>
            <Button
              variant="default"
              leftSection={<IconCash size={16} aria-hidden="true" />}
              onClick={onRecordPayout}
              disabled={paidThroughStripe}
            >
              Record Payout
            </Button>
          </Group>
        </Group>
        <Group gap="xs">
          <Text fz="sm">Payout account</Text>
          <PayoutAccountBadge account={editor.payoutAccount} />
          <Text fz="sm" c="gray.7">
            {paidThroughStripe
              ? 'Paid through Stripe as each revision window closes.'
              : editor.payoutAccount.status === 'not_set_up'
                ? 'Earnings are held until the editor sets up payouts; pay by hand meanwhile.'
                : editor.payoutAccount.requirements.length
                  ? `Stripe still needs: ${editor.payoutAccount.requirements.join(', ')}.`
                  : 'Earnings are held until Stripe can pay this editor.'}
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}
