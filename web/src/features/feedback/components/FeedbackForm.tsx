import { Button, Group, NativeSelect, Paper, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  FEEDBACK_MAX_LENGTH,
  type FeedbackType,
  feedbackTypes,
  submitFeedbackInput,
} from '@marketplace/events/feedback';
import { IconSend } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { apiErrorText } from '../../../lib/api-client';
import { feedbackTypeLabels } from '../../../lib/feedback-labels';
import { useSubmitFeedback } from '../api/use-submit-feedback';

const DEFAULT_TYPE: FeedbackType = 'general';

export function FeedbackForm({ onSubmitted }: { onSubmitted: () => void }) {
  const [type, setType] = useState<FeedbackType>(DEFAULT_TYPE);
  const [message, setMessage] = useState('');
  const [messageError, setMessageError] = useState<string | null>(null);
  const { trigger, isMutating } = useSubmitFeedback();

  const clear = () => {
    setType(DEFAULT_TYPE);
    setMessage('');
    setMessageError(null);
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // The server's own schema: trimmed, then the same length rules, so the two never disagree.
    const parsed = submitFeedbackInput.safeParse({ type, message });
    if (!parsed.success) {
      setMessageError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setMessageError(null);
    try {
      await trigger(parsed.data);
      clear();
      onSubmitted();
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Feedback not sent',
        message: apiErrorText(error, 'Failed to submit feedback. Please try again.'),
      });
    }
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
      <form onSubmit={handleSubmit} noValidate aria-label="Feedback">
        <Stack gap="md">
          <NativeSelect
            label="Type"
            value={type}
            onChange={(event) => setType(event.currentTarget.value as FeedbackType)}
            data={feedbackTypes.map((value) => ({ value, label: feedbackTypeLabels[value] }))}
            maw={320}
          />
          <Textarea
            label="Message"
            description="Describe what happened or what you would like to see. Include the order number if it is about an order."
            placeholder="Tell us as much as you can…"
            withAsterisk
            autosize
            minRows={6}
            maxRows={14}
            value={message}
            onChange={(event) => {
              setMessage(event.currentTarget.value);
              if (messageError) setMessageError(null);
            }}
            error={messageError}
          />
          <Text fz="xs" c={message.trim().length > FEEDBACK_MAX_LENGTH ? 'red' : 'dimmed'} ta="right" mt={-8}>
            {message.trim().length} / {FEEDBACK_MAX_LENGTH} characters
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={clear} disabled={isMutating}>
              Clear
            </Button>
            <Button type="submit" loading={isMutating} leftSection={<IconSend size={16} aria-hidden="true" />}>
              Submit Feedback
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
