import {
  Alert,
  Badge,
  Box,
  Checkbox,
  Fieldset,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { OrderAddOnsView, OrderPriceView } from '@marketplace/events/add-ons';
import type { OrderImageView, OrderStatus } from '@marketplace/events/orders';
import { useState } from 'react';
import { SectionLoader } from '../../../components/PageLoader';
import { apiErrorText } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format-money';
import { useOrderImages } from '../../../lib/order-images';
import { useOfferedAddOns, useOrderAddOns, useSaveOrderAddOns } from '../api/use-add-ons';
import { OrderPriceSummary } from './OrderPriceSummary';

type Selection = Map<string, Set<string>>;

const selectionOf = (view: OrderAddOnsView): Selection =>
  new Map(view.photos.map((photo) => [photo.key, new Set(photo.addOnIds)]));

/** The selection with `addOnId` ticked (or not) on each of `keys`, as the route takes it. */
export const withAddOn = (current: Selection, keys: readonly string[], addOnId: string, on: boolean) => {
  const next: Selection = new Map([...current].map(([key, ids]) => [key, new Set(ids)]));
  for (const key of keys) {
    const ids = next.get(key) ?? new Set<string>();
    if (on) ids.add(addOnId);
    else ids.delete(addOnId);
    next.set(key, ids);
  }
  return [...next].filter(([, ids]) => ids.size > 0).map(([key, addOnIds]) => ({ key, addOnIds: [...addOnIds] }));
};

function Thumbnail({ image }: { image: OrderImageView }) {
  return image.thumbnailUrl ? (
    <Image src={image.thumbnailUrl} alt="" h={96} fit="cover" radius="sm" />
  ) : (
    <Box h={96} bg="gray.1" style={{ borderRadius: 4, display: 'grid', placeItems: 'center' }}>
      <Text fz="xs" c="gray.7">
        Preparing preview…
      </Text>
    </Box>
  );
}

function AddOnBadges({ names }: { names: readonly string[] }) {
  if (!names.length) return null;
  return (
    <Group gap={4} aria-label="Add-ons on this photo">
      {names.map((name) => (
        <Badge key={name} size="xs" variant="light" color="teal.9">
          {name}
        </Badge>
      ))}
    </Group>
  );
}

/** Photographer, order awaiting payment: choose photos, tick add-ons for them, see the server's price. */
function AddOnsPicker({
  orderId,
  originals,
  view,
  baseLabel,
  onPriced,
}: {
  orderId: string;
  originals: OrderImageView[];
  view: OrderAddOnsView;
  baseLabel: string;
  onPriced?: ((price: OrderPriceView) => void) | undefined;
}) {
  const offered = useOfferedAddOns();
  const save = useSaveOrderAddOns(orderId);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const selection = selectionOf(view);
  const nameOf = new Map(view.price.lines.map((line) => [line.addOnId, line.name]));
  for (const addOn of offered.data ?? []) nameOf.set(addOn.id, addOn.name);
  const keys = [...chosen];
  const allChosen = originals.length > 0 && chosen.size === originals.length;

  const toggle = async (addOnId: string, on: boolean) => {
    setSaving(true);
    setError(null);
    try {
      const saved = await save(withAddOn(selection, keys, addOnId, on));
      onPriced?.(saved.price);
    } catch (failure) {
      setError(apiErrorText(failure, 'The add-ons could not be saved. Please try again.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="md">
      <Text fz="sm" c="gray.7">
        Some services are priced per photo. Choose the photos, then tick the add-ons they need.
      </Text>
      <Checkbox
        label="Select all photos"
        checked={allChosen}
        indeterminate={chosen.size > 0 && !allChosen}
        onChange={() => setChosen(allChosen ? new Set() : new Set(originals.map((image) => image.key)))}
      />
      <SimpleGrid
        cols={{ base: 2, sm: 3, md: 4 }}
        spacing="sm"
        component="ul"
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
        aria-label="Photos"
      >
        {originals.map((image) => {
          const names = [...(selection.get(image.key) ?? [])].map((id) => nameOf.get(id) ?? id);
          return (
            <Paper key={image.key} withBorder p="xs" radius="md" component="li">
              <Stack gap={6}>
                <Thumbnail image={image} />
                <Checkbox
                  label={image.filename}
                  checked={chosen.has(image.key)}
                  onChange={(event) => {
                    const next = new Set(chosen);
                    if (event.currentTarget.checked) next.add(image.key);
                    else next.delete(image.key);
                    setChosen(next);
                  }}
                  styles={{ label: { wordBreak: 'break-all' } }}
                />
                <AddOnBadges names={names} />
              </Stack>
            </Paper>
          );
        })}
      </SimpleGrid>
      <Fieldset
        legend={
          chosen.size === 0
            ? 'Add-ons (choose photos first)'
            : `Add-ons for the ${chosen.size === 1 ? 'selected photo' : `${chosen.size} selected photos`}`
        }
      >
        {offered.error ? (
          <Alert color="red">The add-ons could not be loaded. Please try again later.</Alert>
        ) : !offered.data ? (
          <SectionLoader label="Loading the add-ons" />
        ) : offered.data.length === 0 ? (
          <Text fz="sm">No add-ons are offered right now.</Text>
        ) : (
          <Stack gap="xs">
            {offered.data.map((addOn) => {
              const having = keys.filter((key) => selection.get(key)?.has(addOn.id)).length;
              return (
                <Checkbox
                  key={addOn.id}
                  label={`${addOn.name} (${formatMoney(addOn.pricePerPhotoCents)} per photo)`}
                  description={addOn.description ?? undefined}
                  checked={keys.length > 0 && having === keys.length}
                  indeterminate={having > 0 && having < keys.length}
                  disabled={keys.length === 0 || saving}
                  onChange={(event) => void toggle(addOn.id, event.currentTarget.checked)}
                />
              );
            })}
          </Stack>
        )}
      </Fieldset>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Box aria-live="polite">
        <OrderPriceSummary price={view.price} baseLabel={baseLabel} />
      </Box>
    </Stack>
  );
}

/** Anyone else, or once paid: each add-on × its photos, and the photos that have add-ons with a badge each. */
function AddOnsList({
  originals,
  view,
  showPrices,
  baseLabel,
}: {
  originals: OrderImageView[];
  view: OrderAddOnsView;
  showPrices: boolean;
  baseLabel: string;
}) {
  const nameOf = new Map(view.price.lines.map((line) => [line.addOnId, line.name]));
  const byKey = new Map(view.photos.map((photo) => [photo.key, photo.addOnIds]));
  const withAddOns = originals.filter((image) => byKey.get(image.key)?.length);
  return (
    <Stack gap="md">
      {showPrices ? (
        <OrderPriceSummary price={view.price} baseLabel={baseLabel} />
      ) : (
        <Stack gap={4} component="ul" m={0} pl="md" aria-label="Add-ons on this order">
          {view.price.lines.map((line) => (
            <Text key={line.addOnId} component="li" fz="sm">
              {line.name} × {line.photoCount} {line.photoCount === 1 ? 'photo' : 'photos'}
            </Text>
          ))}
        </Stack>
      )}
      {withAddOns.length > 0 && (
        <SimpleGrid
          cols={{ base: 2, sm: 3, md: 4 }}
          spacing="sm"
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label="Photos with add-ons"
        >
          {withAddOns.map((image) => (
            <Paper key={image.key} withBorder p="xs" radius="md" component="li">
              <Stack gap={6}>
                <Thumbnail image={image} />
                <Text fz="xs" style={{ wordBreak: 'break-all' }}>
                  {image.filename}
                </Text>
                <AddOnBadges names={(byKey.get(image.key) ?? []).map((id) => nameOf.get(id) ?? id)} />
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

/**
 * 'Add-ons' on an order: in create-order's payment step (and on an order awaiting payment) the
 * photographer picks them on chosen photos and sees the server's price; once paid, and for the
 * editor, the add-ons × their photos and a badge on each photo that has one. Loaded lazily.
 */
export default function OrderAddOnsPanel({
  order,
  viewer,
  onPriced,
}: {
  order: { id: string; status: OrderStatus; jobTypeName?: string | undefined };
  viewer: 'photographer' | 'editor' | 'admin';
  onPriced?: (price: OrderPriceView) => void;
}) {
  const images = useOrderImages(order.id);
  const addOns = useOrderAddOns(order.id);
  const editable = viewer === 'photographer' && order.status === 'pending_payment';

  if (images.isLoading || addOns.isLoading) return <SectionLoader label="Loading the add-ons" />;
  if (images.error || addOns.error || !images.data || !addOns.data) {
    return <Alert color="red">The add-ons could not be loaded. Please try again later.</Alert>;
  }
  const originals = images.data.images.filter((image) => image.kind === 'original');
  if (!editable && addOns.data.price.lines.length === 0) return null;
  const baseLabel = order.jobTypeName ?? 'Editing';

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="lg" component="section" aria-labelledby="add-ons-heading">
      <Title order={2} fz="lg" id="add-ons-heading" mb="sm">
        Add-ons
      </Title>
      {editable ? (
        <AddOnsPicker
          orderId={order.id}
          originals={originals}
          view={addOns.data}
          baseLabel={baseLabel}
          onPriced={onPriced}
        />
      ) : (
        <AddOnsList originals={originals} view={addOns.data} showPrices={viewer !== 'editor'} baseLabel={baseLabel} />
      )}
    </Paper>
  );
}
