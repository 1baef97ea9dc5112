import { Alert, Button, Group, Paper, Stack, Switch, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import type { JobTypeView } from '@marketplace/events/job-types';
import { IconEdit, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyState } from '../../../../components/EmptyState';
import { PageLoader } from '../../../../components/PageLoader';
import { apiErrorText } from '../../../../lib/api-client';
import { formatMoney } from '../../../../lib/format-money';
import { useAdminJobTypes, useJobTypeWrites } from '../../api/job-types';
import { AddOnsSection } from './AddOnsSection';
import { CreateJobTypeForm } from './CreateJobTypeForm';
import { EditJobTypeModal } from './EditJobTypeModal';

function ActiveSwitch({ jobType }: { jobType: JobTypeView }) {
  const { update } = useJobTypeWrites();
  const [saving, setSaving] = useState(false);
  const toggle = async () => {
    setSaving(true);
    try {
      await update(jobType.id, { isActive: !jobType.isActive });
      notifications.show({
        color: 'green',
        message: `${jobType.name} is now ${jobType.isActive ? 'inactive' : 'active'}`,
      });
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'Failed to update job type') });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Switch
      checked={jobType.isActive}
      label={jobType.isActive ? 'Active' : 'Inactive'}
      disabled={saving}
      onChange={toggle}
      aria-label={`${jobType.name} offered to photographers`}
    />
  );
}

/** Below this width the table would hide its switches and buttons off to the side: cards instead. */
const TABLE_QUERY = '(min-width: 48em)';

function EditButton({ jobType, onEdit }: { jobType: JobTypeView; onEdit: (jobType: JobTypeView) => void }) {
  return (
    <Button
      variant="subtle"
      size="xs"
      leftSection={<IconEdit size={14} aria-hidden="true" />}
      onClick={() => onEdit(jobType)}
      aria-label={`Edit prices of ${jobType.name}`}
    >
      Edit
    </Button>
  );
}

function JobTypeName({ jobType }: { jobType: JobTypeView }) {
  return (
    <>
      <Text fw={600} fz="sm">
        {jobType.name}
      </Text>
      {jobType.description && (
        <Text fz="xs" c="gray.7">
          {jobType.description}
        </Text>
      )}
    </>
  );
}

/** Phone width: one card per job type, every control in reach. */
function JobTypeCards({ jobTypes, onEdit }: { jobTypes: JobTypeView[]; onEdit: (jobType: JobTypeView) => void }) {
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Job types">
      {jobTypes.map((jobType) => (
        <Paper key={jobType.id} withBorder radius="lg" p="md" component="li">
          <Stack gap="xs">
            <div>
              <JobTypeName jobType={jobType} />
            </div>
            <Text fz="sm">
              Photographer price <b>{formatMoney(jobType.pricePerPhotoCents)}</b> · Editor rate{' '}
              <b>{formatMoney(jobType.defaultEditorPriceCents)}</b> · Express +
              <b>{formatMoney(jobType.tierSurchargeCents.express)}</b> · Rush +
              <b>{formatMoney(jobType.tierSurchargeCents.rush)}</b>
            </Text>
            <Group justify="space-between" gap="sm">
              <ActiveSwitch jobType={jobType} />
              <EditButton jobType={jobType} onEdit={onEdit} />
            </Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** Job Types: the services on offer with their prices; new ones, price changes, and switching one off. */
export function JobTypesTab() {
  const { data, error } = useAdminJobTypes();
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
      ) : !wideEnoughForTable ? (
        <JobTypeCards jobTypes={data} onEdit={setEditing} />
      ) : (
        <Paper withBorder radius="lg">
          <Table.ScrollContainer minWidth={640}>
            <Table aria-label="Job types" verticalSpacing="sm" horizontalSpacing="md">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Job type</Table.Th>
                  <Table.Th ta="right">Photographer price</Table.Th>
                  <Table.Th ta="right">Editor rate</Table.Th>
                  <Table.Th ta="right">Express surcharge</Table.Th>
                  <Table.Th ta="right">Rush surcharge</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.map((jobType) => (
                  <Table.Tr key={jobType.id}>
                    <Table.Td>
                      <JobTypeName jobType={jobType} />
                    </Table.Td>
                    <Table.Td ta="right">{formatMoney(jobType.pricePerPhotoCents)}</Table.Td>
                    <Table.Td ta="right">{formatMoney(jobType.defaultEditorPriceCents)}</Table.Td>
                    <Table.Td ta="right">{formatMoney(jobType.tierSurchargeCents.express)}</Table.Td>
                    <Table.Td ta="right">{formatMoney(jobType.tierSurchargeCents.rush)}</Table.Td>
                    <Table.Td>
                      <ActiveSwitch jobType={jobType} />
                    </Table.Td>
                    <Table.Td>
                      <EditButton jobType={jobType} onEdit={setEditing} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      {editing && <EditJobTypeModal key={editing.id} jobType={editing} onClose={() => setEditing(null)} />}
      <AddOnsSection wide={wideEnoughForTable} />
    </Stack>
  );
}
