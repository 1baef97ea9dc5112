import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { JobTypeView } from '@marketplace/events/job-types';
import { useState } from 'react';
import { apiErrorText } from '../../../../lib/api-client';
import { useJobTypeWrites } from '../../api/job-types';
import { MoneyInput } from '../MoneyInput';

/** Changes a job type's prices and its Express and Rush surcharges; orders already placed keep the price they were placed at. */
export function EditJobTypeModal({ jobType, onClose }: { jobType: JobTypeView; onClose: () => void }) {
  const { update } = useJobTypeWrites();
  const [pricePerPhotoCents, setPrice] = useState(jobType.pricePerPhotoCents);
  const [defaultEditorPriceCents, setEditorRate] = useState(jobType.defaultEditorPriceCents);
  const [express, setExpress] = useState(jobType.tierSurchargeCents.express);
  const [rush, setRush] = useState(jobType.tierSurchargeCents.rush);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    setSaving(true);
    try {
      await update(jobType.id, {
        pricePerPhotoCents,
        defaultEditorPriceCents,
        tierSurchargeCents: { express, rush },
      });
      notifications.show({ color: 'green', message: 'Job type updated successfully!' });
      onClose();
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'Failed to update job type') });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={`Edit ${jobType.name}`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text fz="sm" c="gray.7">
          New prices apply to new orders; existing orders keep their price.
        </Text>
        <MoneyInput label="Photographer price per photo" value={pricePerPhotoCents} onChange={setPrice} />
        <MoneyInput label="Default editor rate per photo" value={defaultEditorPriceCents} onChange={setEditorRate} />
        <MoneyInput label="Express (24 h) surcharge per photo" value={express} onChange={setExpress} />
        <MoneyInput label="Rush (12 h) surcharge per photo" value={rush} onChange={setRush} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} loading={saving}>
            Save Prices
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
