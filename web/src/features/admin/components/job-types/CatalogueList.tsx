import { Button, Group, Paper, Stack, Switch, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { apiErrorText } from '../../../../lib/api-client';

/** What the Job Types tab lists: job types and add-ons, each offered or not, with its prices. */
export interface CatalogueItem {
  id: string;
  name: string;
  description?: string | null;
  isActive: boolean;
}

export interface CatalogueColumn<T> {
  header: string;
  cell: (item: T) => ReactNode;
}

interface CatalogueListProps<T extends CatalogueItem> {
  items: T[];
  /** The list's accessible name ('Job types', 'Add-ons') and its first column's header. */
  label: string;
  nameHeader: string;
  /** The figures after the name, as table columns (right-aligned). */
  columns: CatalogueColumn<T>[];
  /** The same figures in a sentence on a phone's card. */
  cardFacts: (item: T) => ReactNode;
  /** A table from 48em; cards below it, where a table would hide its switches off to the side. */
  wide: boolean;
  /** The switch's two states ('Active' / 'Inactive'); the toast says 'X is now <state>'. */
  states: { on: string; off: string };
  setActive: (item: T, isActive: boolean) => Promise<unknown>;
  toggleFailure: string;
  editLabel: (item: T) => string;
  onEdit: (item: T) => void;
}

/** An item's on/off switch: saved at once, said in a toast, the server's reason when it fails. */
function OfferSwitch<T extends CatalogueItem>({
  item,
  states,
  setActive,
  toggleFailure,
}: { item: T } & Pick<CatalogueListProps<T>, 'states' | 'setActive' | 'toggleFailure'>) {
  const [saving, setSaving] = useState(false);
  const toggle = async () => {
    setSaving(true);
    try {
      await setActive(item, !item.isActive);
      notifications.show({
        color: 'green',
        message: `${item.name} is now ${(item.isActive ? states.off : states.on).toLowerCase()}`,
      });
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, toggleFailure) });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Switch
      checked={item.isActive}
      label={item.isActive ? states.on : states.off}
      disabled={saving}
      onChange={toggle}
      aria-label={`${item.name} offered to photographers`}
    />
  );
}

function EditButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button
      variant="subtle"
      size="xs"
      leftSection={<IconEdit size={14} aria-hidden="true" />}
      onClick={onClick}
      aria-label={label}
    >
      Edit
    </Button>
  );
}

function ItemName({ item }: { item: CatalogueItem }) {
  return (
    <>
      <Text fw={600} fz="sm">
        {item.name}
      </Text>
      {item.description && (
        <Text fz="xs" c="gray.7">
          {item.description}
        </Text>
      )}
    </>
  );
}

/**
 * The job types' and the add-ons' list: a table with each item's figures, its on/off switch and
 * 'Edit' on a wide screen, one card per item on a phone.
 */
export function CatalogueList<T extends CatalogueItem>(props: CatalogueListProps<T>) {
  const { items, label, nameHeader, columns, cardFacts, wide, editLabel, onEdit } = props;
  const offerSwitch = (item: T) => (
    <OfferSwitch item={item} states={props.states} setActive={props.setActive} toggleFailure={props.toggleFailure} />
  );
  if (!wide) {
    return (
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={label}>
        {items.map((item) => (
          <Paper key={item.id} withBorder radius="lg" p="md" component="li">
            <Stack gap="xs">
              <div>
                <ItemName item={item} />
              </div>
              <Text fz="sm">{cardFacts(item)}</Text>
              <Group justify="space-between" gap="sm">
                {offerSwitch(item)}
                <EditButton label={editLabel(item)} onClick={() => onEdit(item)} />
              </Group>
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Paper withBorder radius="lg">
      <Table.ScrollContainer minWidth={640}>
        <Table aria-label={label} verticalSpacing="sm" horizontalSpacing="md">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{nameHeader}</Table.Th>
              {columns.map((column) => (
                <Table.Th key={column.header} ta="right">
                  {column.header}
                </Table.Th>
              ))}
              <Table.Th>Status</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td>
                  <ItemName item={item} />
                </Table.Td>
                {columns.map((column) => (
                  <Table.Td key={column.header} ta="right">
                    {column.cell(item)}
                  </Table.Td>
                ))}
                <Table.Td>{offerSwitch(item)}</Table.Td>
                <Table.Td>
                  <EditButton label={editLabel(item)} onClick={() => onEdit(item)} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
