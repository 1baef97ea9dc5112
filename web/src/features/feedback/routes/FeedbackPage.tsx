import { Stack } from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../../../components/PageHeader';
import { FeedbackForm } from '../components/FeedbackForm';
import { FeedbackSubmitted } from '../components/FeedbackSubmitted';
import { MyFeedbackList } from '../components/MyFeedbackList';

export function FeedbackPage() {
  const [submitted, setSubmitted] = useState(false);
  return (
    <Stack gap="xl" maw={760}>
      <PageHeader
        title="Report a Problem or Suggestion"
        description="Tell us what went wrong or what would make the marketplace better. We read every report."
        mb={0}
      />
      {submitted ? (
        <FeedbackSubmitted onSubmitMore={() => setSubmitted(false)} />
      ) : (
        <FeedbackForm onSubmitted={() => setSubmitted(true)} />
      )}
      <MyFeedbackList />
    </Stack>
  );
}
