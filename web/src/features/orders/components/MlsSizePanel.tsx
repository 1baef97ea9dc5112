import { Alert, List, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MLS_LONG_EDGES, MLS_MAX_BYTES, type MlsLongEdge, type MlsSetView } from '@marketplace/events/delivery';
import { useState } from 'react';
import { SectionLoader } from '../../../components/PageLoader';
import { apiErrorText } from '../../../lib/api-client';
import { useListingSequence, useSetMlsSize } from '../api/use-listing-sequence';

const pixels = (longEdge: number) => `${longEdge.toLocaleString('en-US')} px`;

const sizeOptions = MLS_LONG_EDGES.map((longEdge) => ({ value: String(longEdge), label: pixels(longEdge) }));

/** How far the MLS-ready set is, in one line. */
export const mlsProgressText = (mls: MlsSetView) => {
  const total = mls.ready + mls.pending + mls.skipped.length;
  const size = pixels(mls.longEdge);
  if (total === 0) return 'No edited photos to make MLS-ready copies of yet.';
  if (mls.pending > 0) return `Making copies at ${size}: ${mls.ready} of ${total} ready.`;
  if (mls.skipped.length === 0) return `All ${total} copies ready at ${size}.`;
  const left = mls.skipped.length === 1 ? '1 file is left out' : `${mls.skipped.length} files are left out`;
  return `${mls.ready} of ${total} copies ready at ${size}; ${left}:`;
};

/**
 * The order's MLS-ready copies: the long edge the photographer's listing service takes (copies are
 * never enlarged), how far the set is, and the files left out of it with the reason.
 */
export function MlsSizePanel({ orderId }: { orderId: string }) {
  const { data: view, error, isLoading } = useListingSequence(orderId);
  const { trigger: setMlsSize, isMutating } = useSetMlsSize(orderId);
  // The size just chosen shows at once, while the server records it.
  const [choosing, setChoosing] = useState<MlsLongEdge | null>(null);

  if (isLoading) return <SectionLoader label="Loading the MLS-ready photos" />;
  if (error || !view)
    return <Alert color="red">The MLS-ready photos could not be loaded. Please try again later.</Alert>;
  if (view.photos.length === 0) return null;

  const choose = async (value: string) => {
    const longEdge = Number(value) as MlsLongEdge;
    if (longEdge === view.mlsLongEdge) return;
    setChoosing(longEdge);
    try {
      await setMlsSize({ longEdge });
      notifications.show({ color: 'green', message: `MLS-ready photos set to ${pixels(longEdge)} on the long edge` });
    } catch (failure) {
      notifications.show({ color: 'red', message: apiErrorText(failure, 'The MLS size could not be changed') });
    } finally {
      setChoosing(null);
    }
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="lg" component="section" aria-labelledby="mls-heading">
      <Title order={2} fz="lg" id="mls-heading" mb={4}>
        MLS-Ready Photos
      </Title>
      <Text fz="sm" c="gray.7" mb="md">
        JPEG copies for listing services, each under {MLS_MAX_BYTES / (1024 * 1024)} MB and never enlarged, numbered in
        your listing order.
      </Text>
      <Stack gap={6}>
        <Text fz="sm" fw={600} id="mls-size-label">
          Long edge
        </Text>
        <SegmentedControl
          aria-labelledby="mls-size-label"
          data={sizeOptions}
          value={String(choosing ?? view.mlsLongEdge)}
          onChange={choose}
          disabled={isMutating}
          style={{ alignSelf: 'flex-start' }}
        />
        <Text fz="sm" mt={6}>
          {mlsProgressText(view.mls)}
        </Text>
        {view.mls.skipped.length > 0 && (
          <List fz="sm" spacing={2} aria-label="Files left out of the MLS-ready set">
            {view.mls.skipped.map((file) => (
              <List.Item key={file.key}>
                <Text span fw={600} fz="sm">
                  {file.filename}
                </Text>
                : {file.reason}
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Paper>
  );
}
