import { Group, Paper, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { JobTypeView } from '@marketplace/events/job-types';
import {
  type TurnaroundTier,
  tierSurchargeCents,
  turnaroundHours,
  turnaroundTierLabel,
  turnaroundTiers,
} from '@marketplace/events/turnaround';
import { formatMoney } from '../../../lib/format-money';

/**
 * 'How soon?': one radio card per tier, each with its price per photo and its promise. The choice
 * is sent as the tier alone; the server prices it (decision 0110).
 */
export function TurnaroundTierPicker({
  jobType,
  value,
  onChange,
}: {
  jobType: JobTypeView | null;
  value: TurnaroundTier;
  onChange: (tier: TurnaroundTier) => void;
}) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="turnaround-heading">
      <Stack gap="sm">
        <Title order={2} fz="lg" id="turnaround-heading">
          Turnaround
        </Title>
        <Radio.Group
          value={value}
          onChange={(tier) => onChange(tier as TurnaroundTier)}
          aria-labelledby="turnaround-heading"
        >
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            {turnaroundTiers.map((tier) => {
              const surcharge = tierSurchargeCents(jobType?.tierSurchargeCents, tier);
              const perPhoto = jobType ? jobType.pricePerPhotoCents + surcharge : null;
              return (
                <Radio.Card key={tier} value={tier} radius="md" p="md" data-testid={`tier-${tier}`}>
                  <Group wrap="nowrap" align="flex-start" gap="sm">
                    <Radio.Indicator />
                    <Stack gap={2}>
                      <Text fw={600}>{turnaroundTierLabel[tier]}</Text>
                      <Text fz="sm" c="gray.7">
                        {perPhoto === null ? 'Choose a service' : `${formatMoney(perPhoto)} per photo`}
                      </Text>
                      <Text fz="sm" c="gray.7">
                        {surcharge > 0 ? `+${formatMoney(surcharge)} per photo, ` : ''}
                        due {turnaroundHours[tier]} h after payment
                      </Text>
                    </Stack>
                  </Group>
                </Radio.Card>
              );
            })}
          </SimpleGrid>
        </Radio.Group>
      </Stack>
    </Paper>
  );
}
