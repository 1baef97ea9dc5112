import { Alert, Anchor, Image, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { editingStyleLines } from '@marketplace/events/editing-style';
import type { OrderDetailView } from '@marketplace/events/orders';
import { useId } from 'react';
import { apiErrorText } from '../../../lib/api-client';
import { useOrderEditingStyle } from '../../profile/api/editing-style';

/**
 * The photographer's editing style for this order, as kept when the order was made: the choices as
 * a short list of facts, the notes, and the reference photos (their links asked for only when the
 * order has some). The editor works from it; the photographer sees what the editor was given.
 */
export function EditingStyleCard({
  order,
  viewer,
}: {
  order: Pick<OrderDetailView, 'id' | 'editingStyle'>;
  viewer: 'editor' | 'photographer';
}) {
  const headingId = useId();
  const style = order.editingStyle;
  const withPhotos = !!style && style.referencePhotos.length > 0;
  const photos = useOrderEditingStyle(withPhotos ? order.id : undefined);

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} fz="lg" id={headingId}>
          Editing style
        </Title>
        {!style ? (
          <Text fz="sm" c="gray.7">
            {viewer === 'editor'
              ? 'This order was placed without an editing style. Follow the requirements above.'
              : 'This order was placed without an editing style. Save one on your profile and your next orders will carry it.'}
          </Text>
        ) : (
          <>
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" component="dl" m={0}>
              {editingStyleLines(style).map((line) => (
                <div key={line.label}>
                  <Text component="dt" fz="xs" c="gray.7">
                    {line.label}
                  </Text>
                  <Text component="dd" m={0} fw={600} fz="sm">
                    {line.value}
                  </Text>
                </div>
              ))}
            </SimpleGrid>
            {style.notes && (
              <Text fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                <Text span fw={600} fz="sm">
                  Notes:
                </Text>{' '}
                {style.notes}
              </Text>
            )}
            {withPhotos &&
              (photos.error && !photos.data ? (
                <Alert color="red" p="xs">
                  {apiErrorText(photos.error, 'The reference photos could not be loaded.')}
                </Alert>
              ) : (
                <Stack gap={4}>
                  <Text fz="sm" fw={600}>
                    Reference photos
                  </Text>
                  <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm">
                    {(photos.data?.referencePhotos ?? style.referencePhotos.map((p) => ({ ...p, url: '' }))).map(
                      (photo) =>
                        photo.url ? (
                          <Anchor key={photo.key} href={photo.url} target="_blank" rel="noreferrer">
                            <Image
                              src={photo.url}
                              alt={`Reference photo ${photo.filename}`}
                              h={90}
                              fit="cover"
                              radius="sm"
                            />
                          </Anchor>
                        ) : (
                          <Text key={photo.key} fz="xs" c="gray.7">
                            Loading {photo.filename}…
                          </Text>
                        ),
                    )}
                  </SimpleGrid>
                </Stack>
              ))}
          </>
        )}
      </Stack>
    </Paper>
  );
}
