import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type AddOnView,
  createAddOnInput,
  NEW_ADD_ON_EDITOR_RATE_CENTS,
  NEW_ADD_ON_PRICE_CENTS,
} from '@marketplace/events/add-ons';
import * as z from '@marketplace/events/zod';
import { IconPlus } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { EmptyState } from '../../../../components/EmptyState';
import { PageLoader } from '../../../../components/PageLoader';
import { apiErrorText } from '../../../../lib/api-client';
import { formatMoney } from '../../../../lib/format-money';
import { useAddOnWrites, useAdminAddOns } from '../../api/add-ons';
import { MoneyInput } from '../MoneyInput';
import { CatalogueList } from './CatalogueList';

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

/** The Job Types tab's 'Add-ons' part: per-photo services with their prices, added, edited, switched off. */
export function AddOnsSection({ wide }: { wide: boolean }) {
  const { data, error } = useAdminAddOns();
  const { update } = useAddOnWrites();
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
      ) : (
        <CatalogueList
          items={data}
          label="Add-ons"
          nameHeader="Add-on"
          columns={[
            { header: 'Photographer price', cell: (addOn) => formatMoney(addOn.pricePerPhotoCents) },
            { header: 'Editor rate', cell: (addOn) => formatMoney(addOn.editorRatePerPhotoCents) },
            {
              header: 'Order',
              cell: (addOn) => (
                <Badge variant="light" color="gray">
                  {addOn.sortOrder}
                </Badge>
              ),
            },
          ]}
          cardFacts={(addOn) => (
            <>
              Photographer price <b>{formatMoney(addOn.pricePerPhotoCents)}</b> · Editor rate{' '}
              <b>{formatMoney(addOn.editorRatePerPhotoCents)}</b> per photo
            </>
          )}
          wide={wide}
          states={{ on: 'Offered', off: 'Withdrawn' }}
          setActive={(addOn, isActive) => update(addOn.id, { isActive })}
          toggleFailure="Failed to update the add-on"
          editLabel={(addOn) => `Edit ${addOn.name}`}
          onEdit={setEditing}
        />
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
