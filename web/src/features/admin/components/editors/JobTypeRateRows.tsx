import { ActionIcon, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { FALLBACK_EDITOR_RATE_CENTS } from '@marketplace/events/editor-orders';
import type { JobTypeView } from '@marketplace/events/job-types';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useId } from 'react';
import type { JobTypeRate } from '../../api/editors';
import { MoneyInput } from '../MoneyInput';

const defaultRateOf = (jobTypes: JobTypeView[], jobTypeId: string) =>
  jobTypes.find((jobType) => jobType.id === jobTypeId)?.defaultEditorPriceCents ?? FALLBACK_EDITOR_RATE_CENTS;

const jobTypeLabel = (jobType: JobTypeView) => (jobType.isActive ? jobType.name : `${jobType.name} (inactive)`);

interface JobTypeRateRowsProps {
  jobTypes: JobTypeView[];
  rates: JobTypeRate[];
  onChange: (rates: JobTypeRate[]) => void;
  /** Shown under the rows, e.g. that at least one is needed. */
  error?: string | null;
}

/**
 * The editor's pay per job type, one row each, every job type at most once: adding picks the first
 * unused active type at its default editor price; changing a row's type resets its rate to that
 * type's default (or the fallback rate).
 */
export function JobTypeRateRows({ jobTypes, rates, onChange, error }: JobTypeRateRowsProps) {
  const headingId = useId();
  const used = new Set(rates.map((rate) => rate.jobTypeId));
  const nextUnused = jobTypes.find((jobType) => jobType.isActive && !used.has(jobType.id));
  const nameOf = (jobTypeId: string) => jobTypes.find((jobType) => jobType.id === jobTypeId)?.name ?? jobTypeId;

  const setRow = (index: number, rate: JobTypeRate) => onChange(rates.map((row, i) => (i === index ? rate : row)));
  const optionsFor = (rowJobTypeId: string) => {
    const options = jobTypes
      .filter((jobType) => jobType.id === rowJobTypeId || (jobType.isActive && !used.has(jobType.id)))
      .map((jobType) => ({ value: jobType.id, label: jobTypeLabel(jobType) }));
    // A rate for a job type no longer listed still shows what it is.
    return options.some((option) => option.value === rowJobTypeId)
      ? options
      : [{ value: rowJobTypeId, label: rowJobTypeId }, ...options];
  };

  return (
    <Stack gap="xs">
      <Text id={headingId} fw={600} fz="sm">
        Job type rates
      </Text>
      {rates.length > 0 && (
        <Stack component="ul" aria-labelledby={headingId} gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {rates.map((rate, index) => (
            <Group
              component="li"
              // By position: a row keeps its focus when its job type changes; its inputs follow the rate.
              // biome-ignore lint/suspicious/noArrayIndexKey: the row is its position in the list
              key={index}
              align="flex-end"
              gap="xs"
              wrap="nowrap"
              aria-label={nameOf(rate.jobTypeId)}
            >
              <NativeSelect
                label="Job type"
                style={{ flex: 2, minWidth: 0 }}
                value={rate.jobTypeId}
                data={optionsFor(rate.jobTypeId)}
                onChange={(event) => {
                  const jobTypeId = event.currentTarget.value;
                  setRow(index, { jobTypeId, ratePerPhotoCents: defaultRateOf(jobTypes, jobTypeId) });
                }}
              />
              <MoneyInput
                label="Rate per photo"
                style={{ flex: 1, minWidth: 96 }}
                value={rate.ratePerPhotoCents}
                onChange={(ratePerPhotoCents) => setRow(index, { ...rate, ratePerPhotoCents })}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                mb={2}
                aria-label={`Remove ${nameOf(rate.jobTypeId)}`}
                onClick={() => onChange(rates.filter((_, i) => i !== index))}
              >
                <IconTrash size={18} aria-hidden="true" />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
      {error && (
        <Text c="red.8" fz="sm">
          {error}
        </Text>
      )}
      <Group>
        <Button
          variant="light"
          leftSection={<IconPlus size={16} aria-hidden="true" />}
          disabled={!nextUnused}
          onClick={() =>
            nextUnused &&
            onChange([...rates, { jobTypeId: nextUnused.id, ratePerPhotoCents: nextUnused.defaultEditorPriceCents }])
          }
        >
          Add Job Type Rate
        </Button>
      </Group>
    </Stack>
  );
}
