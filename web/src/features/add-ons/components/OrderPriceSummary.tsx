import { Group, Stack, Text } from '@mantine/core';
import type { OrderPriceView } from '@marketplace/events/add-ons';
import { formatMoney } from '../../../lib/format-money';

const photos = (count: number) => `${count} ${count === 1 ? 'photo' : 'photos'}`;

/**
 * The order's price as the server computed it: the base price × photos, the turnaround's surcharge
 * × photos, each add-on × its photos, then the total. Only the server's figures are shown; nothing here adds anything up.
 */
export function OrderPriceSummary({ price, baseLabel }: { price: OrderPriceView; baseLabel: string }) {
  return (
    <div data-testid="order-price">
      <Stack gap={4} component="dl" m={0}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text component="dt" fz="sm">
            {baseLabel} {formatMoney(price.pricePerPhotoCents)} × {photos(price.photoCount)}
          </Text>
          <Text component="dd" m={0} fz="sm">
            {formatMoney(price.baseCents)}
          </Text>
        </Group>
        {price.surcharge && (
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text component="dt" fz="sm">
              {price.surcharge.label} {formatMoney(price.surcharge.perPhotoCents)} × {photos(price.photoCount)}
            </Text>
            <Text component="dd" m={0} fz="sm">
              {formatMoney(price.surcharge.amountCents)}
            </Text>
          </Group>
        )}
        {price.lines.map((line) => (
          <Group key={line.addOnId} justify="space-between" gap="xs" wrap="nowrap">
            <Text component="dt" fz="sm">
              {line.name} {formatMoney(line.pricePerPhotoCents)} × {photos(line.photoCount)}
            </Text>
            <Text component="dd" m={0} fz="sm">
              {formatMoney(line.amountCents)}
            </Text>
          </Group>
        ))}
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text component="dt" fw={700}>
            Total
          </Text>
          <Text component="dd" m={0} fw={700} data-testid="order-total">
            {formatMoney(price.totalCents)}
          </Text>
        </Group>
      </Stack>
    </div>
  );
}
