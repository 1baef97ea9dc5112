import { Alert, Group, Loader, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { EDITOR_NOTES_MAX } from '@marketplace/events/editor-orders';
import type { OrderDetailView } from '@marketplace/events/orders';
import { useOrderImages } from '../../api/use-editor-order';
import { DownloadAllOriginalsButton } from './DownloadAllOriginalsButton';
import { EditedUploadPanel } from './EditedUploadPanel';
import { FileGrid } from './FileTile';

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

/** The originals to download, the editor's uploads and deliveries, and the notes for the photographer. */
export function ImagesTab({ order, editorNotes, onEditorNotesChange, onUploaded }: ImagesTabProps) {
  const { data, error, isLoading, mutate } = useOrderImages(order.id);
  const originals = data?.images.filter((image) => image.kind === 'original') ?? [];
  const edited = data?.images.filter((image) => image.kind === 'edited') ?? [];
  const working = order.status === 'in_progress';

  const filesState = (files: typeof originals, emptyText: string, label: string) => {
    if (isLoading) return <Loader size="sm" aria-label="Loading files" />;
    if (error) return <Alert color="red">The files could not be loaded. Please try again later.</Alert>;
    if (files.length === 0) return <Text c="gray.7">{emptyText}</Text>;
    return <FileGrid images={files} label={label} />;
  };

  return (
    <Stack gap="lg">
      <Section
        id="originals-heading"
        title={`Original Images (${originals.length})`}
        actions={<DownloadAllOriginalsButton order={order} disabled={!isLoading && originals.length === 0} />}
      >
        {filesState(originals, 'The photographer has not uploaded any originals.', 'Original images')}
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
        {filesState(edited, 'No edited files uploaded yet.', 'Delivered files')}
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
    </Stack>
  );
}
