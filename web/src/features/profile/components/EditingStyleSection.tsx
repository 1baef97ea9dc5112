import {
  ActionIcon,
  Alert,
  Button,
  FileButton,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type EditingStyle,
  type EditingStyleView,
  editingStyleInput,
  MAX_STYLE_REFERENCE_PHOTOS,
  type StyleReferencePhoto,
} from '@marketplace/events/editing-style';
import { IconAlertCircle, IconPhotoPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { SectionLoader } from '../../../components/PageLoader';
import { apiErrorText } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { referenceFileRefusal, saveEditingStyle, uploadStyleReference, useEditingStyle } from '../api/editing-style';
import { fieldErrorsOf } from '../api/profile';
import { EditingStyleFields } from './EditingStyleFields';
import { ProfileSection } from './ProfileSection';

type StyleErrors = Partial<Record<keyof EditingStyle, string>>;

/** The browser's check with the API's own schema: each field's first message. */
export const styleErrorsOf = (style: EditingStyle): StyleErrors => {
  const parsed = editingStyleInput.safeParse(style);
  if (parsed.success) return {};
  const errors: StyleErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof EditingStyle | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
};

interface ShownPhoto extends StyleReferencePhoto {
  url: string | null;
}

const photosOf = (view: EditingStyleView): ShownPhoto[] =>
  view.style.referencePhotos.map((photo) => ({
    ...photo,
    url: view.referencePhotos.find((shown) => shown.key === photo.key)?.url ?? null,
  }));

/**
 * /profile's 'Editing style' (photographers): the look every new order starts from, with up to
 * five reference photos uploaded straight to S3. Saved whole with the Save button.
 */
export function EditingStyleSection() {
  const { user } = useAuth();
  const saved = useEditingStyle();
  const [style, setStyle] = useState<EditingStyle | null>(null);
  const [photos, setPhotos] = useState<ShownPhoto[]>([]);
  const [errors, setErrors] = useState<StyleErrors>({});
  const [uploading, setUploading] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (saved.data && style === null) {
      setStyle(saved.data.style);
      setPhotos(photosOf(saved.data));
    }
  }, [saved.data, style]);

  const change = (next: Partial<EditingStyle>) => {
    setStyle((current) => (current ? { ...current, ...next } : current));
    setErrors((current) => {
      const kept = { ...current };
      for (const field of Object.keys(next)) delete kept[field as keyof EditingStyle];
      return kept;
    });
  };

  const addPhoto = async (file: File | null) => {
    if (!file || !user) return;
    const refusal = referenceFileRefusal(file);
    if (refusal) {
      setErrors((current) => ({ ...current, referencePhotos: refusal }));
      return;
    }
    setUploading(true);
    try {
      const uploaded = await uploadStyleReference(user.uid, file);
      setPhotos((current) => [...current, { ...uploaded, url: URL.createObjectURL(file) }]);
      setErrors((current) => ({ ...current, referencePhotos: undefined }));
    } catch (error) {
      setErrors((current) => ({
        ...current,
        referencePhotos: apiErrorText(error, 'The photo could not be uploaded. Please try again.'),
      }));
    } finally {
      setUploading(false);
    }
  };

  const save = async () => {
    if (!style) return;
    const toSave: EditingStyle = { ...style, referencePhotos: photos.map(({ key, filename }) => ({ key, filename })) };
    const found = styleErrorsOf(toSave);
    if (Object.keys(found).length) {
      setErrors(found);
      return;
    }
    setSaving(true);
    try {
      const view = await saveEditingStyle(toSave);
      await saved.mutate(view, { revalidate: false });
      setStyle(view.style);
      setPhotos(photosOf(view));
      notifications.show({ color: 'green', message: 'Your editing style is saved. New orders start from it.' });
    } catch (error) {
      setErrors(fieldErrorsOf(error) as StyleErrors);
      notifications.show({ color: 'red', message: apiErrorText(error, 'Your editing style was not saved.') });
    } finally {
      setSaving(false);
    }
  };

  return (
    <ProfileSection
      title="Editing style"
      description="How you like your photos edited. Every new order starts from this style, and you can change it for one order."
    >
      {saved.error && !saved.data ? (
        <Alert color="red" icon={<IconAlertCircle size={18} />} title="Your editing style could not be loaded">
          <Stack gap="xs" align="flex-start">
            <Text fz="sm">{apiErrorText(saved.error, 'Please try again.')}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void saved.mutate()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : !style ? (
        <SectionLoader label="Loading your editing style…" />
      ) : (
        <Stack gap="md" id="editing-style">
          <EditingStyleFields style={style} onChange={change} errors={errors} />
          <Stack gap="xs">
            <Title order={3} fz="md">
              Reference photos
            </Title>
            <Text fz="sm" c="gray.7">
              Up to {MAX_STYLE_REFERENCE_PHOTOS} photos edited the way you like (JPEG, PNG or WebP).
            </Text>
            {photos.length === 0 ? (
              <Text fz="sm" c="gray.7">
                No reference photos yet.
              </Text>
            ) : (
              <SimpleGrid
                cols={{ base: 2, sm: 5 }}
                spacing="sm"
                component="ul"
                p={0}
                m={0}
                style={{ listStyle: 'none' }}
              >
                {photos.map((photo) => (
                  <Paper key={photo.key} component="li" withBorder radius="md" p={4}>
                    <Stack gap={4}>
                      {photo.url ? (
                        <Image
                          src={photo.url}
                          alt={`Reference photo ${photo.filename}`}
                          h={90}
                          fit="cover"
                          radius="sm"
                        />
                      ) : (
                        <Text fz="xs">{photo.filename}</Text>
                      )}
                      <Group justify="space-between" gap={4} wrap="nowrap">
                        <Text fz="xs" truncate>
                          {photo.filename}
                        </Text>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Remove reference photo ${photo.filename}`}
                          onClick={() => setPhotos((current) => current.filter((p) => p.key !== photo.key))}
                        >
                          <IconTrash size={16} aria-hidden="true" />
                        </ActionIcon>
                      </Group>
                    </Stack>
                  </Paper>
                ))}
              </SimpleGrid>
            )}
            {errors.referencePhotos && (
              <Text fz="sm" c="red.8" role="alert">
                {errors.referencePhotos}
              </Text>
            )}
            <FileButton onChange={(file) => void addPhoto(file)} accept="image/jpeg,image/png,image/webp">
              {(props) => (
                <Button
                  {...props}
                  variant="light"
                  leftSection={<IconPhotoPlus size={16} aria-hidden="true" />}
                  loading={uploading}
                  disabled={photos.length >= MAX_STYLE_REFERENCE_PHOTOS}
                  style={{ alignSelf: 'flex-start' }}
                >
                  {photos.length >= MAX_STYLE_REFERENCE_PHOTOS
                    ? `${MAX_STYLE_REFERENCE_PHOTOS} reference photos added`
                    : 'Add a reference photo'}
                </Button>
              )}
            </FileButton>
          </Stack>
          <Group justify="flex-end">
            <Button onClick={() => void save()} loading={saving} disabled={uploading}>
              Save editing style
            </Button>
          </Group>
        </Stack>
      )}
    </ProfileSection>
  );
}
