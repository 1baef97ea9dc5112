import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { JobTypeView } from '@marketplace/events/job-types';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyState } from '../../../../components/EmptyState';
import { PageLoader } from '../../../../components/PageLoader';
import { apiErrorText } from '../../../../lib/api-client';
import { formatMoney } from '../../../../lib/format-money';
import { useAdminJobTypes, useJobTypeWrites } from '../../api/job-types';
import { AddOnsSection } from './AddOnsSection';
import { CatalogueList } from './CatalogueList';
import { CreateJobTypeForm } from './CreateJobTypeForm';
import { EditJobTypeModal } from './EditJobTypeModal';

/** Below this width the table would hide its switches and buttons off to the side: cards instead. */
const TABLE_QUERY = '(min-width: 48em)';

/** Job Types: the services on offer with their prices; new ones, price changes, and switching one off. */
export function JobTypesTab() {
  const { data, error } = useAdminJobTypes();
  const { update } = useJobTypeWrites();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<JobTypeView | null>(null);
  const wideEnoughForTable = useMediaQuery(TABLE_QUERY, true, { getInitialValueInEffect: false });

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <Stack gap={2}>
          <Title order={2} fz="xl">
            Job Types
          </Title>
          <Text c="gray.7" fz="sm">
            Inactive job types are not offered on new orders; existing orders keep their price.
          </Text>
        </Stack>
        {!creating && (
          <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setCreating(true)}>
            Add Job Type
          </Button>
        )}
      </Group>
      {creating && <CreateJobTypeForm onDone={() => setCreating(false)} />}
      {error ? (
        <Alert color="red" title="Job types could not be loaded">
          {apiErrorText(error, 'Failed to load job types')}
        </Alert>
      ) : !data ? (
        <PageLoader label="Loading job types…" />
      ) : data.length === 0 ? (
        <EmptyState title="No job types yet">Add one so photographers can order it.</EmptyState>
      ) : (
        <CatalogueList
          items={data}
          label="Job types"
          nameHeader="Job type"
          columns={[
            { header: 'Photographer price', cell: (jobType) => formatMoney(jobType.pricePerPhotoCents) },
            { header: 'Editor rate', cell: (jobType) => formatMoney(jobType.defaultEditorPriceCents) },
            { header: 'Express surcharge', cell: (jobType) => formatMoney(jobType.tierSurchargeCents.express) },
            { header: 'Rush surcharge', cell: (jobType) => formatMoney(jobType.tierSurchargeCents.rush) },
          ]}
          cardFacts={(jobType) => (
            <>
              Photographer price <b>{formatMoney(jobType.pricePerPhotoCents)}</b> · Editor rate{' '}
              <b>{formatMoney(jobType.defaultEditorPriceCents)}</b> · Express +
              <b>{formatMoney(jobType.tierSurchargeCents.express)}</b> · Rush +
              <b>{formatMoney(jobType.tierSurchargeCents.rush)}</b>
            </>
          )}
          wide={wideEnoughForTable}
          states={{ on: 'Active', off: 'Inactive' }}
          setActive={(jobType, isActive) => update(jobType.id, { isActive })}
          toggleFailure="Failed to update job type"
          editLabel={(jobType) => `Edit prices of ${jobType.name}`}
          onEdit={setEditing}
        />
      )}
      {editing && <EditJobTypeModal key={editing.id} jobType={editing} onClose={() => setEditing(null)} />}
      <AddOnsSection wide={wideEnoughForTable} />
    </Stack>
  );
}
