import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type AddOnView,
  createAddOnInput,
  NEW_ADD_ON_EDITOR_RATE_CENTS,
  NEW_ADD_ON_PRICE_CENTS,
} from '@marketplace/events/add-ons';
import * as z from '@marketplace/events/zod';
import { IconEdit, IconPlus } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { EmptyState } from '../../../../components/EmptyState';
import { PageLoader } from '../../../../components/PageLoader';
import { apiErrorText } from '../../../../lib/api-client';
import { formatMoney } from '../../../../lib/format-money';
import { useAddOnWrites, useAdminAddOns } from '../../api/add-ons';
import { MoneyInput } from '../MoneyInput';

type Field = 'name' | 'description' | 'pricePerPhotoCents' | 'editorRatePerPhotoCents' | 'sortOrder';
type FieldErrors = Partial<Record<Field, string>>;

/** The shared schema's first message per field, so the form says what the server would. */
export const addOnFormErrors = (values: Record<Field, unknown>): FieldErrors => {
  const parsed = z.safeParse(createAddOnInput, values);
  if (parsed.success) return {};
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
};

/** Adding or editing an add-on: name, description, the two prices per photo and its place in the list. */
export function AddOnModal({ addOn, onClose }: { addOn: AddOnView | null; onClose: () => void }) {
  const { create, update } = useAddOnWrites();
  const [name, setName] = useState(addOn?.name ?? '');
  const [description, setDescription] = useState(addOn?.description ?? '');
  const [pricePerPhotoCents, setPrice] = useState(addOn?.pricePerPhotoCents ?? NEW_ADD_ON_PRICE_CENTS);
  const [editorRatePerPhotoCents, setEditorRate] = useState(
    addOn?.editorRatePerPhotoCents ?? NEW_ADD_ON_EDITOR_RATE_CENTS,
  );
  const [sortOrder, setSortOrder] = useState<number | string>(addOn?.sortOrder ?? 0);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const values = {
      name,
      description: description.trim() || null,
      pricePerPhotoCents,
      editorRatePerPhotoCents,
      sortOrder: typeof sortOrder === 'number' ? sortOrder : Number.NaN,
    };
    const found = addOnFormErrors(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      if (addOn) await update(addOn.id, { ...values, name: name.trim() });
      else await create({ ...values, name: name.trim(), description: values.description ?? undefined });
      notifications.show({ color: 'green', message: addOn ? 'Add-on updated' : 'Add-on created' });
      onClose();
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'Failed to save the add-on') });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={addOn ? `Edit ${addOn.name}` : 'New add-on'}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text fz="sm" c="gray.7">
            Priced per photo it is ticked on. Orders already placed keep their prices.
          </Text>
          <TextInput
            label="Name"
            withAsterisk
            maxLength={100}
            value={name}
            error={errors.name}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            maxLength={1000}
            value={description}
            error={errors.description}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <MoneyInput
              label="Photographer price per photo"
              value={pricePerPhotoCents}
              onChange={setPrice}
              error={errors.pricePerPhotoCents}
            />
            <MoneyInput
              label="Editor rate per photo"
              value={editorRatePerPhotoCents}
              onChange={setEditorRate}
              error={errors.editorRatePerPhotoCents}
            />
          </SimpleGrid>
          <NumberInput
            label="Sort order"
            description="Lower numbers are listed first"
            allowDecimal={false}
            allowNegative={false}
            value={sortOrder}
            onChange={setSortOrder}
            error={errors.sortOrder}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              {addOn ? 'Save Add-on' : 'Create Add-on'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function OfferedSwitch({ addOn }: { addOn: AddOnView }) {
  const { update } = useAddOnWrites();
  const [saving, setSaving] = useState(false);
  const toggle = async () => {
    setSaving(true);
    try {
      await update(addOn.id, { isActive: !addOn.isActive });
      notifications.show({
        color: 'green',
        message: `${addOn.name} is now ${addOn.isActive ? 'withdrawn' : 'offered'}`,
      });
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'Failed to update the add-on') });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Switch
      checked={addOn.isActive}
      label={addOn.isActive ? 'Offered' : 'Withdrawn'}
      disabled={saving}
      onChange={toggle}
      aria-label={`${addOn.name} offered to photographers`}
    />
  );
}

function EditButton({ addOn, onEdit }: { addOn: AddOnView; onEdit: (addOn: AddOnView) => void }) {
  return (
    <Button
      variant="subtle"
      size="xs"
      leftSection={<IconEdit size={14} aria-hidden="true" />}
      onClick={() => onEdit(addOn)}
      aria-label={`Edit ${addOn.name}`}
    >
      Edit
    </Button>
  );
}

/** The Job Types tab's 'Add-ons' part: per-photo services with their prices, added, edited, switched off. */
export function AddOnsSection({ wide }: { wide: boolean }) {
  const { data, error } = useAdminAddOns();
  const [editing, setEditing] = useState<AddOnView | 'new' | null>(null);

  return (
    <Stack gap="md" component="section" aria-labelledby="add-ons-heading">
      <Group justify="space-between" gap="sm">
        <Stack gap={2}>
          <Title id="add-ons-heading" order={2} fz="xl">
            Add-ons
          </Title>
          <Text c="gray.7" fz="sm">
            Services priced per photo, ticked on chosen photos of an order (e.g. virtual staging).
          </Text>
        </Stack>
        <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setEditing('new')}>
          Add Add-on
        </Button>
      </Group>
      {error ? (
        <Alert color="red" title="Add-ons could not be loaded">
          {apiErrorText(error, 'Failed to load add-ons')}
        </Alert>
      ) : !data ? (
        <PageLoader label="Loading add-ons…" />
      ) : data.length === 0 ? (
        <EmptyState title="No add-ons yet">Add one so photographers can tick it on their photos.</EmptyState>
      ) : !wide ? (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Add-ons">
          {data.map((addOn) => (
            <Paper key={addOn.id} withBorder radius="lg" p="md" component="li">
              <Stack gap="xs">
                <Text fw={600} fz="sm">
                  {addOn.name}
                </Text>
                <Text fz="sm">
                  Photographer price <b>{formatMoney(addOn.pricePerPhotoCents)}</b> · Editor rate{' '}
                  <b>{formatMoney(addOn.editorRatePerPhotoCents)}</b> per photo
                </Text>
                <Group justify="space-between" gap="sm">
                  <OfferedSwitch addOn={addOn} />
                  <EditButton addOn={addOn} onEdit={setEditing} />
                </Group>
              </Stack>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Paper withBorder radius="lg">
          <Table.ScrollContainer minWidth={640}>
            <Table aria-label="Add-ons" verticalSpacing="sm" horizontalSpacing="md">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Add-on</Table.Th>
                  <Table.Th ta="right">Photographer price</Table.Th>
                  <Table.Th ta="right">Editor rate</Table.Th>
                  <Table.Th ta="right">Order</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.map((addOn) => (
                  <Table.Tr key={addOn.id}>
                    <Table.Td>
                      <Text fw={600} fz="sm">
                        {addOn.name}
                      </Text>
                      {addOn.description && (
                        <Text fz="xs" c="gray.7">
                          {addOn.description}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td ta="right">{formatMoney(addOn.pricePerPhotoCents)}</Table.Td>
                    <Table.Td ta="right">{formatMoney(addOn.editorRatePerPhotoCents)}</Table.Td>
                    <Table.Td ta="right">
                      <Badge variant="light" color="gray">
                        {addOn.sortOrder}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <OfferedSwitch addOn={addOn} />
                    </Table.Td>
                    <Table.Td>
                      <EditButton addOn={addOn} onEdit={setEditing} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      {editing && (
        <AddOnModal
          key={editing === 'new' ? 'new' : editing.id}
          addOn={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}
