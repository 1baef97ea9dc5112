import {
  Alert,
  Badge,
  Button,
  CopyButton,
  Group,
  Modal,
  NumberInput,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type CreatedShareLinkView,
  SHARE_LINK_DEFAULT_DAYS,
  SHARE_LINK_MAX_DAYS,
  type ShareLinkStatus,
  type ShareLinkView,
} from '@marketplace/events/delivery';
import { IconCheck, IconCopy, IconLink } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { SectionLoader } from '../../../components/PageLoader';
import { apiErrorText } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format-date';
import { useShareLinkActions, useShareLinks } from '../api/use-share-links';

const statusBadge: Record<ShareLinkStatus, { label: string; color: string }> = {
  active: { label: 'Active', color: 'teal.9' },
  expired: { label: 'Expired', color: 'gray.7' },
  revoked: { label: 'Revoked', color: 'red.9' },
};

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** A whole number of days within the limits, or null while the field holds something else. */
const validDays = (value: string | number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= SHARE_LINK_MAX_DAYS ? value : null;

const daysError = `Enter a whole number of days from 1 to ${SHARE_LINK_MAX_DAYS}`;

function DaysInput({
  value,
  onChange,
  label,
  error,
}: {
  value: string | number;
  onChange: (value: string | number) => void;
  label: string;
  error: boolean;
}) {
  return (
    <NumberInput
      label={label}
      value={value}
      onChange={onChange}
      min={1}
      max={SHARE_LINK_MAX_DAYS}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      error={error ? daysError : undefined}
      w={{ base: '100%', xs: 180 }}
    />
  );
}

/** The link just made: shown once, with a way to copy it, since the token is never shown again. */
function NewLink({ link, onDismiss }: { link: CreatedShareLinkView; onDismiss: () => void }) {
  const url = `${window.location.origin}${link.path}`;
  return (
    <Alert color="teal" variant="light" title="Your new share link" icon={<IconLink size={18} aria-hidden="true" />}>
      <Stack gap="xs">
        <Text fz="sm">Copy it now: for your client's privacy it is not shown again.</Text>
        {/* The whole link wraps in view, so the photographer can see what they are about to send. */}
        <Textarea
          readOnly
          autosize
          minRows={2}
          value={url}
          aria-label="New share link"
          onFocus={(event) => event.currentTarget.select()}
          styles={{ input: { fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' } }}
        />
        <Group gap="xs">
          <CopyButton value={url}>
            {({ copied, copy }) => (
              <Button
                size="sm"
                color={copied ? 'teal.9' : undefined}
                onClick={copy}
                leftSection={
                  copied ? <IconCheck size={16} aria-hidden="true" /> : <IconCopy size={16} aria-hidden="true" />
                }
              >
                {copied ? 'Copied' : 'Copy link'}
              </Button>
            )}
          </CopyButton>
          <Button size="sm" variant="default" onClick={onDismiss}>
            Done
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/**
 * A number of days typed into a form: its value, whether it is valid once the form was sent, and
 * the submit that hands the valid number on (the form is busy meanwhile).
 */
function useDaysForm(onValid: (days: number) => Promise<void>) {
  const [days, setDays] = useState<string | number>(SHARE_LINK_DEFAULT_DAYS);
  const [touched, setTouched] = useState(false);
  const [sending, setSending] = useState(false);
  const valid = validDays(days);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (valid === null) return;
    setSending(true);
    try {
      await onValid(valid);
    } finally {
      setSending(false);
    }
  };
  return { days, setDays, invalid: touched && valid === null, sending, submit };
}

function CreateLinkForm({ onCreate, hasLinks }: { onCreate: (days: number) => Promise<void>; hasLinks: boolean }) {
  const { days, setDays, invalid, sending, submit } = useDaysForm(onCreate);

  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <DaysInput label="Link expires in (days)" value={days} onChange={setDays} error={invalid} />
        <Button type="submit" loading={sending} leftSection={<IconLink size={16} aria-hidden="true" />}>
          {hasLinks ? 'Make a new link' : 'Create share link'}
        </Button>
      </Group>
    </form>
  );
}

function ExtendModal({
  link,
  onClose,
  onExtend,
}: {
  link: ShareLinkView | null;
  onClose: () => void;
  onExtend: (link: ShareLinkView, days: number) => Promise<void>;
}) {
  const { days, setDays, invalid, sending, submit } = useDaysForm(async (valid) => {
    if (!link) return;
    await onExtend(link, valid);
    onClose();
  });

  return (
    <Modal opened={link !== null} onClose={() => !sending && onClose()} title="Change the expiry" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text fz="sm">
            The link will work for this many days from today
            {link?.status === 'expired' ? ', and opens again at once.' : '.'}
          </Text>
          <DaysInput label="Expires in (days)" value={days} onChange={setDays} error={invalid} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={sending}>
              Cancel
            </Button>
            <Button type="submit" loading={sending}>
              Save expiry
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RevokeModal({
  link,
  onClose,
  onRevoke,
}: {
  link: ShareLinkView | null;
  onClose: () => void;
  onRevoke: (link: ShareLinkView) => Promise<void>;
}) {
  const [sending, setSending] = useState(false);
  const revoke = async () => {
    if (!link) return;
    setSending(true);
    try {
      await onRevoke(link);
      onClose();
    } finally {
      setSending(false);
    }
  };
  return (
    <Modal opened={link !== null} onClose={() => !sending && onClose()} title="Revoke this link?" centered>
      <Text mb="lg" fz="sm">
        Anyone who opens it will see 'This link is no longer available', from now on. This cannot be undone; you can
        make a new link at any time.
      </Text>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={sending}>
          Cancel
        </Button>
        <Button color="red.9" onClick={revoke} loading={sending}>
          Revoke link
        </Button>
      </Group>
    </Modal>
  );
}

function LinkRow({ link, onExtend, onRevoke }: { link: ShareLinkView; onExtend: () => void; onRevoke: () => void }) {
  const badge = statusBadge[link.status];
  const when =
    link.status === 'revoked' && link.revokedAt
      ? `Revoked ${formatDate(link.revokedAt)}`
      : `${link.status === 'expired' ? 'Expired' : 'Expires'} ${formatDate(link.expiresAt)}`;
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text fz="sm" fw={600}>
            Made {formatDate(link.createdAt)}
          </Text>
          <Badge color={badge.color} variant="light" size="sm">
            {badge.label}
          </Badge>
        </Group>
        <Text fz="sm" c="gray.7">
          {when}
        </Text>
        <Text fz="sm">
          {plural(link.views, 'view')} · {plural(link.downloads, 'download')}
          {link.lastViewedAt ? ` · last viewed ${formatDate(link.lastViewedAt)}` : ''}
        </Text>
        {link.status !== 'revoked' && (
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={onExtend}>
              Change expiry
            </Button>
            <Button size="xs" variant="outline" color="red.9" onClick={onRevoke}>
              Revoke
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The photographer's links to a completed order's gallery for their client (no account needed):
 * make one with its expiry, copy it while it is shown, and see each link's status, expiry, views
 * and downloads; change an expiry or revoke a link.
 */
export function ShareLinksPanel({ orderId }: { orderId: string }) {
  const { data, error, isLoading, mutate } = useShareLinks(orderId);
  const actions = useShareLinkActions(orderId);
  const [created, setCreated] = useState<CreatedShareLinkView | null>(null);
  const [extending, setExtending] = useState<ShareLinkView | null>(null);
  const [revoking, setRevoking] = useState<ShareLinkView | null>(null);

  const create = async (days: number) => {
    try {
      setCreated(await actions.create(days));
    } catch (failure) {
      notifications.show({ color: 'red', message: apiErrorText(failure, 'The share link could not be made') });
    }
  };
  const extend = async (link: ShareLinkView, days: number) => {
    try {
      await actions.extend(link.id, days);
      notifications.show({ color: 'green', message: 'Expiry changed' });
    } catch (failure) {
      notifications.show({ color: 'red', message: apiErrorText(failure, 'The expiry could not be changed') });
    }
  };
  const revoke = async (link: ShareLinkView) => {
    try {
      await actions.revoke(link.id);
      if (created?.id === link.id) setCreated(null);
      notifications.show({ color: 'green', message: 'Link revoked' });
    } catch (failure) {
      notifications.show({ color: 'red', message: apiErrorText(failure, 'The link could not be revoked') });
    }
  };

  const links = data?.links ?? [];
  let body: React.ReactNode;
  if (isLoading) body = <SectionLoader label="Loading the share links" />;
  else if (error) {
    body = (
      <Alert color="red">
        <Stack gap="xs" align="flex-start">
          <Text fz="sm">The share links could not be loaded.</Text>
          <Button size="xs" variant="default" onClick={() => void mutate()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  } else {
    body = (
      <Stack gap="md">
        {created && <NewLink link={created} onDismiss={() => setCreated(null)} />}
        <CreateLinkForm onCreate={create} hasLinks={links.length > 0} />
        {links.length === 0 ? (
          <Text fz="sm" c="gray.7">
            No share links yet.
          </Text>
        ) : (
          <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Share links">
            {links.map((link) => (
              <LinkRow
                key={link.id}
                link={link}
                onExtend={() => setExtending(link)}
                onRevoke={() => setRevoking(link)}
              />
            ))}
          </Stack>
        )}
      </Stack>
    );
  }

  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="share-links-heading">
      <Title order={2} fz="lg" id="share-links-heading" mb={4}>
        Share with your client
      </Title>
      <Text fz="sm" c="gray.7" mb="md">
        Anyone with the link sees the photos and downloads them, without an account. No price, notes or names are shown.
      </Text>
      {body}
      {/* Keyed by link, so each opens with the default days rather than what was typed for another. */}
      <ExtendModal key={extending?.id} link={extending} onClose={() => setExtending(null)} onExtend={extend} />
      <RevokeModal link={revoking} onClose={() => setRevoking(null)} onRevoke={revoke} />
    </Paper>
  );
}
