import { Alert, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { formatMoney } from '../../../lib/format-money';

function SummaryLine({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap">
      <Text fz={strong ? 'md' : 'sm'} fw={strong ? 700 : 400} c={strong ? undefined : 'gray.7'}>
        {label}
      </Text>
      <Text fz={strong ? 'lg' : 'sm'} fw={strong ? 700 : 500} data-testid={strong ? 'order-total' : undefined}>
        {value}
      </Text>
    </Group>
  );
}

/**
 * The order's price as it stands: photos to edit times the service's price per photo, plus the
 * turnaround surcharge per photo. A preview only: the server prices the order it creates.
 */
export function OrderSummary({
  photoCount,
  fileCount,
  pricePerPhotoCents,
  surcharge = null,
}: {
  photoCount: number;
  fileCount: number;
  pricePerPhotoCents: number | null;
  /** The chosen tier's surcharge (Express, Rush); null for Standard. */
  surcharge?: { label: string; perPhotoCents: number } | null;
}) {
  const total =
    pricePerPhotoCents === null ? null : photoCount * (pricePerPhotoCents + (surcharge?.perPhotoCents ?? 0));
  return (
    <Stack gap="md" pos={{ base: 'static', md: 'sticky' }} top={80}>
      <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="order-summary-heading">
        <Stack gap="sm">
          <Title order={2} fz="lg" id="order-summary-heading">
            Order Summary
          </Title>
          <SummaryLine label="Distinct photos to edit" value={String(photoCount)} />
          <SummaryLine label="Files uploaded" value={String(fileCount)} />
          <SummaryLine
            label="Price per edited photo"
            value={pricePerPhotoCents === null ? 'Choose a service' : formatMoney(pricePerPhotoCents)}
          />
          {surcharge && (
            <SummaryLine
              label={`${surcharge.label} surcharge`}
              value={`${photoCount} × ${formatMoney(surcharge.perPhotoCents)} = ${formatMoney(photoCount * surcharge.perPhotoCents)}`}
            />
          )}
          <Divider />
          <SummaryLine label="Total" value={total === null ? '—' : formatMoney(total)} strong />
        </Stack>
      </Paper>
      <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} aria-hidden="true" />} title="How it works">
        <Text fz="sm">
          Upload all your photos, duplicates and bracketed shots included. You pay only for the number of distinct
          photos you want edited, and our editors choose the best version of each.
        </Text>
      </Alert>
    </Stack>
  );
}
