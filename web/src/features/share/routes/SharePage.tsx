import {
  Alert,
  Box,
  Button,
  Center,
  Container,
  Grid,
  Group,
  Image,
  Paper,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import {
  mlsZipFilename,
  type SharedGalleryView,
  type SharedPhotoView,
  shareLinkUnavailableMessage,
} from '@marketplace/events/delivery';
import { editedZipFilename } from '@marketplace/events/orders';
import type { SharedBusinessView } from '@marketplace/events/profile';
import { IconLinkOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { BRAND_NAME } from '../../../components/BrandMark';
import { PageLoader } from '../../../components/PageLoader';
import { PhotoGrid } from '../../../components/photos/PhotoGrid';
import { PhotoLightbox, viewablePhotos } from '../../../components/photos/PhotoLightbox';
import { ThumbnailTile } from '../../../components/photos/ThumbnailTile';
import { ZipDownloadButton } from '../../../components/ZipDownloadButton';
import { formatDate } from '../../../lib/format-date';
import { isUnavailableLink, useSharedGallery, waitForSharedZip } from '../api/use-shared-gallery';

/** A shared photo as the photo components take it: named as in the zips, which is all the client sees of it. */
const asTilePhoto = (photo: SharedPhotoView) => ({
  filename: photo.entryName,
  thumbnail: photo.thumbnailUrl ? ('ready' as const) : ('placeholder' as const),
  thumbnailUrl: photo.thumbnailUrl,
  previewUrl: photo.previewUrl,
});
type TilePhoto = ReturnType<typeof asTilePhoto>;

/**
 * Kept out of search engines, and the page's address (which holds the link's token) is never
 * sent on as a referrer. The server sends the same as headers; React puts these in the head.
 */
function PrivatePageMeta() {
  return (
    <>
      <meta name="robots" content="noindex" />
      <meta name="referrer" content="no-referrer" />
    </>
  );
}

function UnavailablePage() {
  useDocumentTitle(`Link unavailable · ${BRAND_NAME}`);
  return (
    <Center component="main" mih="100dvh" p="md" bg="gray.0">
      <Stack align="center" gap="md" ta="center" maw={440}>
        <ThemeIcon size={64} radius="xl" variant="light" aria-hidden="true">
          <IconLinkOff size={34} stroke={1.5} />
        </ThemeIcon>
        <Title order={1} fz={28}>
          {shareLinkUnavailableMessage}
        </Title>
        <Text c="gray.7">
          It may have expired or been turned off. Ask the photographer who shared it for a new link.
        </Text>
      </Stack>
    </Center>
  );
}

function LoadFailedPage({ onRetry }: { onRetry: () => void }) {
  useDocumentTitle(`Listing photos · ${BRAND_NAME}`);
  return (
    <Center component="main" mih="100dvh" p="md" bg="gray.0">
      <Stack align="center" gap="md" maw={440}>
        <Title order={1} fz={24}>
          Listing photos
        </Title>
        <Alert color="red" w="100%">
          The photos could not be loaded. Please try again in a moment.
        </Alert>
        <Button onClick={onRetry}>Try again</Button>
      </Stack>
    </Center>
  );
}

function Downloads({ token, gallery }: { token: string; gallery: SharedGalleryView }) {
  const { full, mls } = gallery.downloads;
  const photos = (count: number) => `${count} photo${count === 1 ? '' : 's'}`;
  // The server names each zip; these names stand in only if it does not.
  const zipName = { name: gallery.title, orderNumber: 0 };
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="downloads-heading">
      <Title order={2} fz="lg" id="downloads-heading" mb="xs">
        Download
      </Title>
      <Text fz="sm" c="gray.7" mb="md">
        Both zips hold the photos in listing order, numbered from the cover.
      </Text>
      <Stack gap="md">
        <Stack gap={4}>
          <ZipDownloadButton
            label="Full resolution (zip)"
            waitForZip={(options) => waitForSharedZip(token, 'full', options)}
            filename={editedZipFilename(zipName)}
            successMessage="Full-resolution photos downloaded"
            failureMessage="The full-resolution photos could not be downloaded"
            size="md"
            fullWidth
          />
          <Text fz="xs" c="gray.7">
            {photos(full.fileCount)}, as edited, for print and the web
          </Text>
        </Stack>
        <Stack gap={4}>
          <ZipDownloadButton
            label="MLS-ready (zip)"
            waitForZip={(options) => waitForSharedZip(token, 'mls', options)}
            filename={mlsZipFilename(zipName)}
            successMessage="MLS-ready photos downloaded"
            failureMessage="The MLS-ready photos could not be downloaded"
            size="md"
            variant="light"
            fullWidth
          />
          <Text fz="xs" c="gray.7">
            {mls.fileCount > 0 ? photos(mls.fileCount) : 'Photos'}, {mls.longEdge.toLocaleString('en-US')} px on the
            long edge, under the size listing services accept
          </Text>
        </Stack>
      </Stack>
    </Paper>
  );
}

/** The photographer's business above the property: their logo and name, as they set them on their profile. */
function BusinessHeader({ business }: { business: SharedBusinessView }) {
  return (
    <Group gap="sm" mb="md" wrap="nowrap" aria-label="Photographer" role="group">
      {business.logoUrl && (
        <Image
          src={business.logoUrl}
          alt={business.name ? `${business.name} logo` : "Photographer's logo"}
          h={48}
          w="auto"
          maw={{ base: 160, sm: 240 }}
          fit="contain"
        />
      )}
      {business.name && (
        <Text fw={700} fz={{ base: 'md', sm: 'lg' }} style={{ overflowWrap: 'anywhere' }}>
          {business.name}
        </Text>
      )}
    </Group>
  );
}

function Gallery({ token, gallery }: { token: string; gallery: SharedGalleryView }) {
  const [opened, setOpened] = useState<number | null>(null);
  const photos = gallery.photos.map(asTilePhoto);
  const viewable = viewablePhotos(photos);
  const opener = (photo: TilePhoto) => {
    const index = viewable.indexOf(photo);
    return index < 0 ? undefined : () => setOpened(index);
  };
  const [cover] = photos;
  const openCover = cover && opener(cover);
  useDocumentTitle(`${gallery.title} · Listing photos`);

  return (
    <Box component="main" bg="gray.0" mih="100dvh" py={{ base: 'md', sm: 'xl' }}>
      <Container size="lg">
        <Stack gap="lg">
          <div>
            {gallery.business && <BusinessHeader business={gallery.business} />}
            <Text fz="sm" fw={600} c="gray.7" tt="uppercase" style={{ letterSpacing: '0.06em' }}>
              Listing photos
            </Text>
            <Title order={1} fz={{ base: 26, sm: 34 }} style={{ overflowWrap: 'anywhere' }}>
              {gallery.title}
            </Title>
          </div>
          {/* Side by side from 992 px, so the downloads sit beside the cover rather than below the fold. */}
          <Grid gutter="lg">
            {cover && (
              <Grid.Col span={{ base: 12, md: 8 }}>
                <Paper withBorder radius="lg" p={6} component="section" aria-label="Cover photo">
                  <ThumbnailTile
                    image={{ ...cover, thumbnailUrl: cover.previewUrl ?? cover.thumbnailUrl }}
                    ratio={3 / 2}
                    {...(openCover ? { onOpen: openCover } : {})}
                  />
                </Paper>
              </Grid.Col>
            )}
            <Grid.Col span={{ base: 12, md: cover ? 4 : 12 }}>
              <Downloads token={token} gallery={gallery} />
            </Grid.Col>
          </Grid>
          <Paper
            withBorder
            radius="lg"
            p={{ base: 'md', sm: 'lg' }}
            component="section"
            aria-labelledby="all-photos-heading"
          >
            <Title order={2} fz="lg" id="all-photos-heading" mb="md">
              All photos ({photos.length})
            </Title>
            <PhotoGrid label="Photos in listing order">
              {photos.map((photo, index) => {
                const open = opener(photo);
                return (
                  <Paper component="li" key={photo.filename} withBorder p={6} radius="md">
                    <Stack gap={6}>
                      <ThumbnailTile image={photo} {...(open ? { onOpen: open } : {})} />
                      <Text fz="xs" fw={500} truncate="end" title={photo.filename} px={2}>
                        {index === 0 ? `Cover · ${photo.filename}` : photo.filename}
                      </Text>
                    </Stack>
                  </Paper>
                );
              })}
            </PhotoGrid>
          </Paper>
          <Text fz="sm" c="gray.7" ta="center">
            This link works until {formatDate(gallery.expiresAt)}.
          </Text>
        </Stack>
      </Container>
      <PhotoLightbox photos={viewable} index={opened} onClose={() => setOpened(null)} />
    </Box>
  );
}

/**
 * The gallery a photographer shares with their client, who has no account: the property's name,
 * the cover large, every photo in listing order with the full-size view, and both downloads.
 * A link that opens nothing (unknown, expired, revoked) shows the one page that says so.
 */
export function SharePage() {
  const { token } = useParams();
  const { data: gallery, error, isLoading, mutate } = useSharedGallery(token);

  let content: React.ReactNode;
  if (!token || isUnavailableLink(error)) content = <UnavailablePage />;
  else if (error) content = <LoadFailedPage onRetry={() => void mutate()} />;
  else if (isLoading || !gallery) content = <PageLoader fullScreen label="Loading the photos…" />;
  else content = <Gallery token={token} gallery={gallery} />;

  return (
    <>
      <PrivatePageMeta />
      {content}
    </>
  );
}
