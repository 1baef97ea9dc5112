import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import type { OrderDetailView, OrderImageView } from '@marketplace/events/orders';
import { SectionLoader } from '../../../components/PageLoader';
import { photoPairs } from '../../../components/photos/BeforeAfterModal';
import { CompareButton } from '../../../components/photos/CompareButton';
import { PhotoGrid } from '../../../components/photos/PhotoGrid';
import { ThumbnailTile } from '../../../components/photos/ThumbnailTile';
import { usePhotoViewers } from '../../../components/photos/use-photo-viewers';
import { useOrderImages } from '../../../lib/order-images';

/** An order has been delivered once the editor completed it (a revision round keeps the delivery). */
const isDelivered = (order: OrderDetailView) => order.status === 'completed' || order.status === 'revision_requested';

function PhotoCard({
  image,
  onOpen,
  onCompare,
}: {
  image: OrderImageView;
  onOpen?: (() => void) | undefined;
  onCompare?: (() => void) | undefined;
}) {
  return (
    <Paper component="li" withBorder p={6} radius="md">
      <Stack gap={6}>
        <ThumbnailTile image={image} {...(onOpen ? { onOpen } : {})} />
        <Text fz="xs" fw={500} truncate="end" title={image.filename} px={2}>
          {image.filename}
        </Text>
        {onCompare && <CompareButton filename={image.filename} onClick={onCompare} />}
      </Stack>
    </Paper>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="lg" component="section" aria-labelledby={id}>
      <Title order={2} fz="lg" id={id} mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/**
 * The photographer's photos on the order page: the edited photos once delivered (a click opens
 * the full-size view; 'Compare' opens before and after against the paired original), then the
 * originals they sent.
 */
export function OrderGallery({ order }: { order: OrderDetailView }) {
  const { data, error, isLoading } = useOrderImages(order.id);
  const { lightboxOpener, compareOpener, viewers } = usePhotoViewers();
  const delivered = isDelivered(order);

  if (order.photographerUploadCount === 0 && order.editorUploadCount === 0) return null;
  if (isLoading) return <SectionLoader label="Loading the photos" />;
  if (error || !data) return <Alert color="red">The photos could not be loaded. Please try again later.</Alert>;

  const edited = delivered ? data.images.filter((image) => image.kind === 'edited') : [];
  const originals = data.images.filter((image) => image.kind === 'original');
  const pairs = photoPairs(data.images).filter((pair) => edited.includes(pair.edited));

  return (
    <>
      {edited.length > 0 && (
        <Section id="edited-photos-heading" title={`Edited Photos (${edited.length})`}>
          <PhotoGrid label="Edited photos">
            {edited.map((image) => (
              <PhotoCard
                key={image.key}
                image={image}
                onOpen={lightboxOpener(edited, image)}
                onCompare={compareOpener(pairs, image)}
              />
            ))}
          </PhotoGrid>
        </Section>
      )}
      {originals.length > 0 && (
        <Section id="original-photos-heading" title={`Your Photos (${originals.length})`}>
          <PhotoGrid label="Your photos" min={140}>
            {originals.map((image) => (
              <PhotoCard key={image.key} image={image} onOpen={lightboxOpener(originals, image)} />
            ))}
          </PhotoGrid>
        </Section>
      )}
      {viewers(pairs)}
    </>
  );
}
