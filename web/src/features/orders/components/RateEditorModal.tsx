import { Button, Group, Modal, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { RATING_MAX } from '@marketplace/events/orders';
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import { useState } from 'react';
import { apiErrorText } from '../../../lib/api-client';
import { useRateOrder } from '../api/use-rate-order';

const ratingValues = Array.from({ length: RATING_MAX }, (_, index) => index + 1);
const starName = (value: number) => `${value} ${value === 1 ? 'star' : 'stars'}`;

interface RateEditorModalProps {
  orderId: string;
  opened: boolean;
  onClose: () => void;
}

/** Ten stars to rate the editor of a completed order; Submit waits until one is chosen. */
export function RateEditorModal({ orderId, opened, onClose }: RateEditorModalProps) {
  const [rating, setRating] = useState<number | null>(null);
  const [preview, setPreview] = useState<number | null>(null);
  const { trigger, isMutating } = useRateOrder(orderId);
  const shown = preview ?? rating ?? 0;

  const close = () => {
    setRating(null);
    setPreview(null);
    onClose();
  };

  const submit = async () => {
    if (rating === null) return;
    try {
      await trigger({ rating });
      notifications.show({ color: 'green', message: 'Rating submitted successfully!' });
      close();
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'Failed to submit rating') });
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Rate Your Editor"
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Text fz="sm" c="gray.7" mb="md">
        How happy are you with the edited photos? Choose from 1 to {RATING_MAX} stars.
      </Text>
      <Group
        gap={2}
        wrap="wrap"
        justify="center"
        role="group"
        aria-label="Rating"
        onMouseLeave={() => setPreview(null)}
      >
        {ratingValues.map((value) => (
          <UnstyledButton
            key={value}
            aria-label={starName(value)}
            aria-pressed={rating === value}
            onClick={() => setRating(value)}
            onMouseEnter={() => setPreview(value)}
            p={2}
            style={{ borderRadius: 'var(--mantine-radius-sm)', lineHeight: 0 }}
          >
            {value <= shown ? (
              <IconStarFilled size={26} color="var(--mantine-color-yellow-7)" aria-hidden="true" />
            ) : (
              <IconStar size={26} color="var(--mantine-color-gray-6)" aria-hidden="true" />
            )}
          </UnstyledButton>
        ))}
      </Group>
      <Text ta="center" fw={600} mt="sm" aria-live="polite">
        {rating === null ? 'No rating chosen yet' : `${rating}/${RATING_MAX}`}
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={close}>
          Cancel
        </Button>
        <Button onClick={submit} disabled={rating === null} loading={isMutating}>
          Submit
        </Button>
      </Group>
    </Modal>
  );
}
