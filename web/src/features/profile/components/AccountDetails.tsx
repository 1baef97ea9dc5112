import {
  Alert,
  Avatar,
  Badge,
  Box,
  Button,
  FileButton,
  Group,
  Image,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import {
  acceptedProfilePictureTypes,
  type ProfilePictureKind,
  type ProfilePictureView,
  profilePictureMessages,
} from '@marketplace/events/profile';
import { type MeView, PROFILE_TEXT_MAX, type UpdateProfileInput } from '@marketplace/events/users';
import { IconCheck, IconPhoto } from '@tabler/icons-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { apiErrorText } from '../../../lib/api-client';
import { fieldErrorsOf, pictureFileRefusal, useProfileActions } from '../api/profile';

const roleNames = { photographer: 'Photographer', editor: 'Editor', admin: 'Admin' } as const;

export const profileFormMessages = {
  saved: 'Profile saved.',
  saveFailed: 'Your profile could not be saved. Please try again.',
  uploadFailed: 'The picture could not be uploaded. Please try again.',
  removeFailed: 'The picture could not be removed. Please try again.',
  processing: 'Making the sizes of your picture…',
} as const;

/** How often the page reads the record again while the worker makes a picture's sizes. */
const PROCESSING_POLL_MS = 1500;

const pictureTexts: Record<ProfilePictureKind, { title: string; noun: string; hint: string }> = {
  image: {
    title: 'Profile image',
    noun: 'image',
    hint: 'Shown beside your name in the navigation. JPEG, PNG or WebP, up to 5 MB.',
  },
  logo: {
    title: 'Business logo',
    noun: 'logo',
    hint: "Shown on your share pages above the property's name. JPEG, PNG or WebP, up to 5 MB.",
  },
};

function PicturePreview({
  kind,
  picture,
  me,
}: {
  kind: ProfilePictureKind;
  picture: ProfilePictureView | null;
  me: MeView;
}) {
  const url = picture?.state === 'ready' ? picture.largeUrl : null;
  const name = me.displayName || me.email;
  if (kind === 'image') {
    return (
      <Avatar
        src={url ?? (picture ? null : me.profileImageUrl)}
        name={name}
        color="initials"
        radius="xl"
        size={72}
        alt={url ? `Your profile image` : undefined}
      />
    );
  }
  return url ? (
    <Image src={url} alt="Your business logo" h={56} w="auto" maw={200} fit="contain" />
  ) : (
    <Box
      w={72}
      h={56}
      bg="gray.1"
      style={{ borderRadius: 'var(--mantine-radius-md)', display: 'grid', placeItems: 'center' }}
      aria-hidden="true"
    >
      <IconPhoto size={24} stroke={1.5} color="var(--mantine-color-gray-6)" />
    </Box>
  );
}

/** One picture of the profile: its preview, upload (or replace) and remove, and what the worker made of it. */
function PictureField({ kind, me }: { kind: ProfilePictureKind; me: MeView }) {
  const { upload, remove } = useProfileActions();
  const [busy, setBusy] = useState<'upload' | 'remove' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const headingId = useId();
  const picture = kind === 'image' ? me.profileImage : me.businessLogo;
  const texts = pictureTexts[kind];

  const choose = async (file: File | null) => {
    if (!file) return;
    setDone(null);
    const refusal = pictureFileRefusal(file);
    if (refusal) {
      setError(refusal);
      return;
    }
    setError(null);
    setBusy('upload');
    try {
      await upload(kind, file);
      setDone(`Your ${texts.noun} was uploaded.`);
    } catch (failure) {
      setError(apiErrorText(failure, profileFormMessages.uploadFailed));
    } finally {
      setBusy(null);
    }
  };

  const removePicture = async () => {
    setError(null);
    setDone(null);
    setBusy('remove');
    try {
      await remove(kind);
      setDone(`Your ${texts.noun} was removed.`);
    } catch (failure) {
      setError(apiErrorText(failure, profileFormMessages.removeFailed));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId}>
      <Group gap="md" align="flex-start">
        <PicturePreview kind={kind} picture={picture} me={me} />
        {/* Beside the preview where there is room, below it on a narrow card (a wide logo on a phone). */}
        <Stack gap={6} miw={200} style={{ flex: 1 }}>
          <Text fw={600} id={headingId}>
            {texts.title}
          </Text>
          <Text fz="sm" c="gray.7">
            {texts.hint}
          </Text>
          <Group gap="xs">
            <FileButton onChange={(file) => void choose(file)} accept={acceptedProfilePictureTypes.join(',')}>
              {(props) => (
                <Button {...props} size="xs" variant="light" loading={busy === 'upload'} disabled={busy === 'remove'}>
                  {picture ? `Replace ${texts.noun}` : `Upload ${texts.noun}`}
                </Button>
              )}
            </FileButton>
            {picture && (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                onClick={() => void removePicture()}
                loading={busy === 'remove'}
                disabled={busy === 'upload'}
              >
                Remove {texts.noun}
              </Button>
            )}
          </Group>
          {picture?.state === 'processing' && (
            <Group gap={6} role="status">
              <Loader size="xs" />
              <Text fz="sm">{profileFormMessages.processing}</Text>
            </Group>
          )}
          {done && picture?.state !== 'processing' && (
            <Group gap={4} role="status">
              <IconCheck size={16} color="var(--mantine-color-green-9)" aria-hidden="true" />
              <Text fz="sm">{done}</Text>
            </Group>
          )}
          {picture?.state === 'failed' && (
            <Alert color="red" p="xs">
              {profilePictureMessages.notAPicture}
            </Alert>
          )}
          {error && (
            <Alert color="red" p="xs" role="alert">
              {error}
            </Alert>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}

type Fields = { displayName: string; phone: string; businessName: string };

const fieldsOf = (me: MeView): Fields => ({
  displayName: me.displayName ?? '',
  phone: me.phone ?? '',
  businessName: me.businessName ?? '',
});

/** What changed, as the API takes it: an emptied phone or business name is removed (null). */
const changesOf = (before: Fields, after: Fields, isPhotographer: boolean): UpdateProfileInput | null => {
  const changes: UpdateProfileInput = {};
  if (after.displayName.trim() !== before.displayName.trim()) changes.displayName = after.displayName;
  if (after.phone.trim() !== before.phone.trim()) changes.phone = after.phone.trim() || null;
  if (isPhotographer && after.businessName.trim() !== before.businessName.trim()) {
    changes.businessName = after.businessName.trim() || null;
  }
  return Object.keys(changes).length ? changes : null;
};

/** Name, phone and (photographers) business name, saved together; the server checks each field. */
function ProfileForm({ me }: { me: MeView }) {
  const { save } = useProfileActions();
  const isPhotographer = me.roles.includes('photographer');
  const [fields, setFields] = useState<Fields>(() => fieldsOf(me));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const changes = changesOf(fieldsOf(me), fields, isPhotographer);

  const edit = (field: keyof Fields) => (event: { currentTarget: HTMLInputElement }) => {
    const { value } = event.currentTarget;
    setFields((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: '' }));
    setSaved(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!changes) return;
    setSaving(true);
    setFailure(null);
    setSaved(false);
    try {
      const updated = await save(changes);
      setFields(fieldsOf(updated));
      setErrors({});
      setSaved(true);
    } catch (error) {
      const byField = fieldErrorsOf(error);
      setErrors(byField);
      // A refusal named by its field shows there; anything else above the button.
      if (!Object.keys(byField).length) setFailure(apiErrorText(error, profileFormMessages.saveFailed));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Profile details">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="Display name"
            value={fields.displayName}
            onChange={edit('displayName')}
            error={errors.displayName || undefined}
            maxLength={PROFILE_TEXT_MAX + 20}
            autoComplete="name"
          />
          <TextInput
            label="Phone"
            description="International format: + and the country code"
            placeholder="+1 555 123 4567"
            value={fields.phone}
            onChange={edit('phone')}
            error={errors.phone || undefined}
            type="tel"
            autoComplete="tel"
          />
          {isPhotographer && (
            <TextInput
              label="Business name"
              description="Shown on your share pages above the property's name"
              value={fields.businessName}
              onChange={edit('businessName')}
              error={errors.businessName || undefined}
              maxLength={PROFILE_TEXT_MAX + 20}
              autoComplete="organization"
            />
          )}
        </SimpleGrid>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Group gap="sm">
          <Button type="submit" loading={saving} disabled={!changes}>
            Save profile
          </Button>
          {saved && !changes && (
            <Group gap={4} role="status">
              <IconCheck size={16} color="var(--mantine-color-green-9)" aria-hidden="true" />
              <Text fz="sm">{profileFormMessages.saved}</Text>
            </Group>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The 'Profile' section: who is signed in (email and roles, as the account holds them), the
 * details they may change, their profile image and, for photographers, their business's logo.
 */
export function AccountDetails({ me }: { me: MeView }) {
  const { refresh } = useProfileActions();
  const isPhotographer = me.roles.includes('photographer');
  const processing = me.profileImage?.state === 'processing' || me.businessLogo?.state === 'processing';

  // The worker makes a picture's sizes in a moment; the record is read again until it has.
  useEffect(() => {
    if (!processing) return;
    const timer = setInterval(() => void refresh(), PROCESSING_POLL_MS);
    return () => clearInterval(timer);
  }, [processing, refresh]);

  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Stack gap={2}>
          <Text fz="sm" fw={600} c="gray.7">
            Email
          </Text>
          <Text style={{ overflowWrap: 'anywhere' }}>{me.email}</Text>
        </Stack>
        <Stack gap={2}>
          <Text fz="sm" fw={600} c="gray.7">
            Roles
          </Text>
          <Group gap={6}>
            {me.roles.length ? (
              me.roles.map((role) => (
                <Badge key={role} variant="light">
                  {roleNames[role]}
                </Badge>
              ))
            ) : (
              <Text>No roles</Text>
            )}
          </Group>
        </Stack>
      </SimpleGrid>
      <ProfileForm me={me} />
      <SimpleGrid cols={{ base: 1, md: isPhotographer ? 2 : 1 }} spacing="md">
        <PictureField kind="image" me={me} />
        {isPhotographer && <PictureField kind="logo" me={me} />}
      </SimpleGrid>
    </Stack>
  );
}
