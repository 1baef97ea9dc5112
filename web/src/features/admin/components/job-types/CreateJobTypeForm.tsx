import { Button, Group, Paper, SimpleGrid, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { NEW_JOB_TYPE_EDITOR_RATE_CENTS, NEW_JOB_TYPE_PRICE_CENTS } from '@marketplace/events/admin';
import { type FormEvent, useState } from 'react';
import { apiErrorText } from '../../../../lib/api-client';
import { useJobTypeWrites } from '../../api/job-types';
import { MoneyInput } from '../MoneyInput';

/**
 * Create New Job Type: a name (required), a description, the two prices (defaulting to $5.00 and
 * $0.50) and the Express and Rush surcharges per photo (none unless set).
 */
export function CreateJobTypeForm({ onDone }: { onDone: () => void }) {
  const { create } = useJobTypeWrites();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [pricePerPhotoCents, setPrice] = useState(NEW_JOB_TYPE_PRICE_CENTS);
  const [defaultEditorPriceCents, setEditorRate] = useState(NEW_JOB_TYPE_EDITOR_RATE_CENTS);
  const [express, setExpress] = useState(0);
  const [rush, setRush] = useState(0);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    setSaving(true);
    try {
      await create({
        name: name.trim(),
        description: description.trim() || undefined,
        pricePerPhotoCents,
        defaultEditorPriceCents,
        tierSurchargeCents: { express, rush },
      });
      notifications.show({ color: 'green', message: 'Job type created successfully!' });
      onDone();
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'Failed to create job type') });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="lg">
      <form onSubmit={submit} noValidate aria-labelledby="create-job-type-heading">
        <Stack gap="md">
          <Title id="create-job-type-heading" order={2} fz="lg">
            Create New Job Type
          </Title>
          <TextInput
            label="Name"
            withAsterisk
            maxLength={100}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            maxLength={1000}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <MoneyInput label="Photographer price per photo" value={pricePerPhotoCents} onChange={setPrice} />
            <MoneyInput
              label="Default editor rate per photo"
              value={defaultEditorPriceCents}
              onChange={setEditorRate}
            />
            <MoneyInput label="Express (24 h) surcharge per photo" value={express} onChange={setExpress} />
            <MoneyInput label="Rush (12 h) surcharge per photo" value={rush} onChange={setRush} />
          </SimpleGrid>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit" loading={saving} disabled={!name.trim()}>
              Create Job Type
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
