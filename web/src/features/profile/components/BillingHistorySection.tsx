import { Badge, Button, Group, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type BillingEntryView,
  type BillingHistoryView,
  type BillingStatementView,
  billingMessages,
} from '@marketplace/events/billing';
import { orderDisplayName } from '@marketplace/events/orders';
import { cardLabel } from '@marketplace/events/payments';
import { IconDownload, IconReceipt } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import useSWRInfinite from 'swr/infinite';
import { PagedTable } from '../../../components/PagedTable';
import { apiErrorText, apiGet } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { startBrowserDownload } from '../../../lib/download-completed';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';
import { downloadReceipt, ReceiptPreparing } from '../../../lib/receipts';
import { ProfileSection } from './ProfileSection';

const PAGE_SIZE = 10;
const HISTORY_URL = '/api/billing/history';

const currentMonth = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
};

const orderTitle = (entry: BillingEntryView) =>
  orderDisplayName({ name: entry.orderName, orderNumber: entry.orderNumber });

function MonthStatement() {
  const [month, setMonth] = useState(currentMonth);
  const [busy, setBusy] = useState(false);
  const valid = /^\d{4}-\d{2}$/.test(month);

  const download = async () => {
    setBusy(true);
    try {
      const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
      const statement = await apiGet<BillingStatementView>(
        `/api/billing/statement?${new URLSearchParams({ month, tz })}`,
      );
      const url = URL.createObjectURL(new Blob([statement.csv], { type: 'text/csv;charset=utf-8' }));
      startBrowserDownload(url, statement.filename);
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, billingMessages.statementFailed) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Group align="flex-end" gap="sm">
      <TextInput
        type="month"
        label="Month"
        value={month}
        onChange={(event) => setMonth(event.currentTarget.value)}
        w={180}
      />
      <Button
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden="true" />}
        loading={busy}
        disabled={!valid}
        onClick={() => void download()}
      >
        Download CSV
      </Button>
    </Group>
  );
}

function EntryRow({ entry }: { entry: BillingEntryView }) {
  const [busy, setBusy] = useState(false);
  const refund = entry.kind === 'refund';
  const download = async () => {
    setBusy(true);
    try {
      await downloadReceipt(entry.orderId, entry.id);
    } catch (error) {
      const preparing = error instanceof ReceiptPreparing;
      notifications.show({
        color: preparing ? 'blue' : 'red',
        message: preparing ? error.message : apiErrorText(error, billingMessages.receiptFailed),
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Table.Tr>
      <Table.Td>{formatDate(entry.occurredAt)}</Table.Td>
      <Table.Td>
        <Badge variant="light" color={refund ? 'orange' : 'blue'}>
          {refund ? 'Refund' : 'Payment'}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Text component={Link} to={`/orders/${entry.orderId}`} fz="sm" c="blue.8" td="underline">
          {orderTitle(entry)}
        </Text>
        <Text fz="xs" c="gray.7">
          {entry.jobTypeName} · {entry.photoCount} {entry.photoCount === 1 ? 'photo' : 'photos'}
        </Text>
      </Table.Td>
      <Table.Td>{entry.cardLast4 ? cardLabel({ brand: entry.cardBrand, last4: entry.cardLast4 }) : 'Card'}</Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        {refund ? `−${formatMoney(entry.amountCents)}` : formatMoney(entry.amountCents)}
      </Table.Td>
      <Table.Td>
        <Button
          variant="subtle"
          size="xs"
          loading={busy}
          leftSection={<IconReceipt size={16} aria-hidden="true" />}
          aria-label={`Download ${refund ? 'refund receipt' : 'receipt'} for ${orderTitle(entry)}`}
          onClick={() => void download()}
        >
          Receipt
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * /profile's 'Billing history': every payment and refund, newest first, ten at a time ('Show
 * more' reads the next page by the server's cursor), each with its PDF receipt; and a chosen
 * month as CSV, in the photographer's own time zone.
 */
export function BillingHistorySection() {
  const { user } = useAuth();
  const pages = useSWRInfinite<BillingHistoryView>(
    (index, previous: BillingHistoryView | null) => {
      if (!user || (previous && !previous.nextCursor)) return null;
      const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (previous?.nextCursor) query.set('cursor', previous.nextCursor);
      return [`${HISTORY_URL}?${query}`, user.uid, index];
    },
    ([url]: [string]) => apiGet<BillingHistoryView>(url),
    { revalidateFirstPage: false },
  );
  return (
    <ProfileSection title="Billing history" description="Every payment and refund, newest first, with its receipt.">
      <PagedTable
        pages={pages}
        rowsOf={(page) => page.entries}
        what="billing history"
        empty="No payments yet. Your payments and refunds appear here with their receipts."
        showMoreLabel="Show more"
        table={(entries) => (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Order</Table.Th>
                  <Table.Th>Card</Table.Th>
                  <Table.Th ta="right">Amount</Table.Th>
                  <Table.Th>Receipt</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((entry) => (
                  <EntryRow key={entry.id} entry={entry} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      />
      <MonthStatement />
    </ProfileSection>
  );
}
