import { Alert, Badge, Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { cardLabel, type SavedCardView, savedCardMessages } from '@marketplace/events/payments';
import { IconAlertCircle, IconCreditCard } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { PageLoader } from '../../../components/PageLoader';
import { useSavedCardActions, useSavedCards } from '../../../components/payment/use-saved-cards';
import { apiErrorText } from '../../../lib/api-client';
import { ProfileSection } from './ProfileSection';

const expiry = (card: SavedCardView) => `${String(card.expMonth).padStart(2, '0')}/${String(card.expYear).slice(-2)}`;

function RemoveCardModal({
  card,
  onClose,
  onRemove,
}: {
  card: SavedCardView | null;
  onClose: () => void;
  onRemove: (card: SavedCardView) => Promise<void>;
}) {
  const [removing, setRemoving] = useState(false);
  const remove = async () => {
    if (!card) return;
    setRemoving(true);
    try {
      await onRemove(card);
      onClose();
    } finally {
      setRemoving(false);
    }
  };
  return (
    <Modal opened={card !== null} onClose={() => !removing && onClose()} title="Remove this card?" centered>
      <Stack gap="md">
        <Text>
          {card ? cardLabel(card) : ''} will no longer be offered when you pay. You can save it again the next time you
          pay with it.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={removing}>
            Cancel
          </Button>
          <Button color="red" loading={removing} onClick={() => void remove()}>
            Remove card
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function SavedCardRow({
  card,
  busy,
  onMakeDefault,
  onRemove,
}: {
  card: SavedCardView;
  busy: boolean;
  onMakeDefault: () => void;
  onRemove: () => void;
}) {
  const label = cardLabel(card);
  return (
    <Paper withBorder p="sm" radius="md" component="li" aria-label={label}>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="sm">
          <IconCreditCard size={20} aria-hidden="true" />
          <Stack gap={0}>
            <Group gap={8}>
              <Text fw={600}>{label}</Text>
              {card.isDefault && (
                <Badge variant="light" color="green">
                  Default
                </Badge>
              )}
            </Group>
            <Text fz="sm" c="gray.7">
              Expires {expiry(card)}
            </Text>
          </Stack>
        </Group>
        <Group gap="xs">
          {!card.isDefault && (
            <Button variant="light" size="xs" onClick={onMakeDefault} disabled={busy}>
              Make default
            </Button>
          )}
          <Button variant="subtle" color="red" size="xs" onClick={onRemove} disabled={busy}>
            Remove
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

/**
 * /profile's 'Payment methods': the cards saved by payments made with 'Save this card for next
 * time', which one pays in one click (the default), make another the default, remove one.
 */
export function PaymentMethodsSection() {
  const savedCards = useSavedCards();
  const actions = useSavedCardActions();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [toRemove, setToRemove] = useState<SavedCardView | null>(null);
  const cards = savedCards.data?.cards ?? [];

  const makeDefault = async (card: SavedCardView) => {
    setBusyId(card.id);
    try {
      await actions.makeDefault(card.id);
      notifications.show({ color: 'green', message: savedCardMessages.madeDefault });
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'Failed to update the default card') });
    } finally {
      setBusyId(null);
    }
  };

  const remove = async (card: SavedCardView) => {
    try {
      await actions.remove(card.id);
      notifications.show({ color: 'green', message: savedCardMessages.removed });
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'Failed to remove the card') });
    }
  };

  let content: ReactNode;
  if (savedCards.isLoading) content = <PageLoader label="Loading your saved cards…" />;
  else if (savedCards.error) {
    content = (
      <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />} title="Your cards could not be loaded">
        <Stack gap="xs" align="flex-start">
          <Text fz="sm">{apiErrorText(savedCards.error, 'Failed to load your saved cards. Please try again.')}</Text>
          <Button variant="light" color="red" size="xs" onClick={() => void savedCards.mutate()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  } else if (!cards.length) {
    content = (
      <Text fz="sm" c="gray.7">
        No saved cards yet. Tick 'Save this card for next time' when you pay for an order, and your next order is paid
        in one click.
      </Text>
    );
  } else {
    content = (
      <Stack gap="sm" component="ul" aria-label="Saved cards" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {cards.map((card) => (
          <SavedCardRow
            key={card.id}
            card={card}
            busy={busyId === card.id}
            onMakeDefault={() => void makeDefault(card)}
            onRemove={() => setToRemove(card)}
          />
        ))}
      </Stack>
    );
  }

  return (
    <ProfileSection
      title="Payment methods"
      description="Cards you saved while paying. The default card pays your next order in one click."
    >
      {content}
      <RemoveCardModal card={toRemove} onClose={() => setToRemove(null)} onRemove={remove} />
    </ProfileSection>
  );
}
