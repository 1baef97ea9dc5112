import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdminEditorView } from '@marketplace/events/admin';
import { useState } from 'react';
import { PageLoader } from '../../../../components/PageLoader';
import { apiErrorText } from '../../../../lib/api-client';
import { type JobTypeRate, useEditorWrites } from '../../api/editors';
import { useAdminJobTypes } from '../../api/job-types';
import { JobTypeRateRows } from './JobTypeRateRows';

const ratesOf = (editor: AdminEditorView): JobTypeRate[] =>
  editor.rates.map(({ jobTypeId, ratePerPhotoCents }) => ({ jobTypeId, ratePerPhotoCents }));

/** Edit Editor Rates: the editor's whole list of rates, saved as a replacement of all of them. */
export function EditRatesModal({ editor, onClose }: { editor: AdminEditorView; onClose: () => void }) {
  const jobTypes = useAdminJobTypes();
  const { replaceRates } = useEditorWrites();
  const [rates, setRates] = useState(() => ratesOf(editor));
  const [saving, setSaving] = useState(false);

  const save = async () => {
    setSaving(true);
    try {
      await replaceRates(editor.id, rates);
      notifications.show({ color: 'green', message: 'Editor rates updated successfully!' });
      onClose();
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'Failed to update editor rates') });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title="Edit Editor Rates"
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text fz="sm" c="gray.7">
          Pay per photo for {editor.displayName || editor.email}. New rates apply to orders claimed from now on.
        </Text>
        {jobTypes.error ? (
          <Alert color="red">{apiErrorText(jobTypes.error, 'Failed to load job types')}</Alert>
        ) : !jobTypes.data ? (
          <PageLoader label="Loading job types…" />
        ) : (
          <JobTypeRateRows jobTypes={jobTypes.data} rates={rates} onChange={setRates} />
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} loading={saving} disabled={!jobTypes.data}>
            Save Rates
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
