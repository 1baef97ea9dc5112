import { Alert, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { EDITOR_NOTES_MAX, originalsZipFilename } from '@marketplace/events/editor-orders';
import type { OrderDetailView, OrderImageView } from '@marketplace/events/orders';
import { OrderZipDownloadButton } from '../../../../components/OrderZipDownloadButton';
import { SectionLoader } from '../../../../components/PageLoader';
import { photoPairs } from '../../../../components/photos/BeforeAfterModal';
import { CompareButton } from '../../../../components/photos/CompareButton';
import { PhotoGrid } from '../../../../components/photos/PhotoGrid';
import { usePhotoViewers } from '../../../../components/photos/use-photo-viewers';
import { useOrderImages } from '../../../../lib/order-images';
import { usePairEditedImage } from '../../api/pair-edited-image';
import { EditedUploadPanel } from './EditedUploadPanel';
import { FileTile } from './FileTile';
import { PairingControl } from './PairingControl';

interface ImagesTabProps {
  order: OrderDetailView;
  editorNotes: string;
  onEditorNotesChange: (notes: string) => void;
  onUploaded: () => void;
}

function Section({
  id,
  title,
  actions,
  children,
}: {
  id: string;
  title: string;
  actions?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="lg" component="section" aria-labelledby={id}>
      <Group justify="space-between" align="flex-start" mb="md" gap="sm">
        <Title order={2} fz="lg" id={id}>
          {title}
        </Title>
        {actions}
      </Group>
      {children}
    </Paper>
  );
}

/** The statuses in which the server takes a pairing fix (services/src/data/pairings.ts). */
const canPairIn: readonly OrderDetailView['status'][] = ['in_progress', 'completed', 'revision_requested'];

/** 'Scene 2 - 3 brackets': originals grouped by the HDR scene the browser found; files without one come after. */
export const sceneGroups = (originals: readonly OrderImageView[]) => {
  const scenes = new Map<number, OrderImageView[]>();
  const ungrouped: OrderImageView[] = [];
  for (const image of originals) {
    if (typeof image.scene !== 'number') ungrouped.push(image);
    else scenes.set(image.scene, [...(scenes.get(image.scene) ?? []), image]);
  }
  const groups = [...scenes.entries()]
    .sort(([a], [b]) => a - b)
    .map(([scene, images]) => ({
      title: `Scene ${scene} - ${images.length} ${images.length === 1 ? 'bracket' : 'brackets'}`,
      images,
    }));
  return { groups, ungrouped };
};

/** The originals to download, the editor's uploads and deliveries, and the notes for the photographer. */
export function ImagesTab({ order, editorNotes, onEditorNotesChange, onUploaded }: ImagesTabProps) {
  const { data, error, isLoading, mutate } = useOrderImages(order.id);
  const originals = data?.images.filter((image) => image.kind === 'original') ?? [];
  const edited = data?.images.filter((image) => image.kind === 'edited') ?? [];
  // Edited files go up while the order is in progress or back for a revision.
  const working = order.status === 'in_progress' || order.status === 'revision_requested';
  const pairEditedImage = usePairEditedImage(order.id);
  const { lightboxOpener, compareOpener, viewers } = usePhotoViewers();

  const { groups, ungrouped } = sceneGroups(originals);
  // The lightbox steps through the originals in the order the grid shows them.
  const originalsShown = [...groups.flatMap((group) => group.images), ...ungrouped];
  const pairs = photoPairs(data?.images ?? []);

  const filesState = (files: OrderImageView[], emptyText: string, grid: () => React.ReactNode) => {
    if (isLoading) return <SectionLoader label="Loading files" />;
    if (error) return <Alert color="red">The files could not be loaded. Please try again later.</Alert>;
    if (files.length === 0) return <Text c="gray.7">{emptyText}</Text>;
    return grid();
  };

  const originalTiles = (images: OrderImageView[], label: string) => (
    <PhotoGrid label={label} min={200}>
      {images.map((image) => (
        <FileTile key={image.key} image={image} onOpen={lightboxOpener(originalsShown, image)} />
      ))}
    </PhotoGrid>
  );

  const originalsGrid = () =>
    groups.length === 0 ? (
      originalTiles(ungrouped, 'Original images')
    ) : (
      <Stack gap="md">
        {groups.map((group) => (
          <Stack key={group.title} gap="xs" component="section" aria-label={group.title}>
            <Title order={3} fz="md">
              {group.title}
            </Title>
            {originalTiles(group.images, group.title)}
          </Stack>
        ))}
        {ungrouped.length > 0 && (
          <Stack gap="xs" component="section" aria-label="Not grouped">
            <Title order={3} fz="md">
              Not grouped
            </Title>
            {originalTiles(ungrouped, 'Original images not grouped')}
          </Stack>
        )}
      </Stack>
    );

  const editedGrid = () => (
    <PhotoGrid label="Delivered files" min={200}>
      {edited.map((image) => {
        const compare = compareOpener(pairs, image);
        return (
          <FileTile key={image.key} image={image} onOpen={lightboxOpener(edited, image)}>
            <Stack gap={6}>
              <PairingControl
                image={image}
                originals={originals}
                canChange={canPairIn.includes(order.status)}
                onPair={pairEditedImage}
              />
              {compare && <CompareButton filename={image.filename} onClick={compare} />}
            </Stack>
          </FileTile>
        );
      })}
    </PhotoGrid>
  );

  return (
    <Stack gap="lg">
      <Section
        id="originals-heading"
        title={`Original Images (${originals.length})`}
        actions={
          <OrderZipDownloadButton
            orderId={order.id}
            zip={{
              route: 'images/download-all',
              kind: 'originals',
              filename: originalsZipFilename(order),
              successMessage: 'Images downloaded successfully!',
              failureMessage: 'Download failed: Failed to download images',
            }}
            label="Download All"
            align="flex-end"
            disabled={!isLoading && originals.length === 0}
          />
        }
      >
        {filesState(originals, 'The photographer has not uploaded any originals.', originalsGrid)}
      </Section>
      {working && (
        <EditedUploadPanel
          orderId={order.id}
          onUploaded={() => {
            void mutate();
            onUploaded();
          }}
        />
      )}
      <Section id="edited-heading" title={`Delivered Files (${edited.length})`}>
        {filesState(edited, 'No edited files uploaded yet.', editedGrid)}
      </Section>
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="lg">
        <Textarea
          label="Editor Notes"
          labelProps={{ fz: 'lg', fw: 700, mb: 4 }}
          description="Sent to the photographer with the completed order."
          placeholder="Anything the photographer should know about the edits"
          autosize
          minRows={3}
          maxRows={10}
          maxLength={EDITOR_NOTES_MAX}
          value={editorNotes}
          onChange={(event) => onEditorNotesChange(event.currentTarget.value)}
          readOnly={!working}
        />
      </Paper>
      {viewers(pairs)}
    </Stack>
  );
}
