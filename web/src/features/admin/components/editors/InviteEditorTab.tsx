import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { invitationMessages, inviteEditorInput } from '@marketplace/events/invitations';
import { IconSend } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { PageLoader } from '../../../../components/PageLoader';
import { apiErrorText } from '../../../../lib/api-client';
import { type JobTypeRate, useEditorWrites } from '../../api/editors';
import { useAdminJobTypes } from '../../api/job-types';
import { JobTypeRateRows } from './JobTypeRateRows';
import { useEmailUnavailableText } from './use-email-availability';

type FieldErrors = Partial<Record<'email' | 'displayName', string>>;

/** Invite New Editor: email, name and the editor's pay per job type; the invitee gets an email with a sign-up link. */
export function InviteEditorTab() {
  const jobTypes = useAdminJobTypes();
  const { invite } = useEditorWrites();
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [rates, setRates] = useState<JobTypeRate[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sending, setSending] = useState(false);
  const unavailableText = useEmailUnavailableText(email);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = inviteEditorInput.safeParse({ email, displayName, jobTypeRates: rates });
    if (!parsed.success) {
      const fieldErrors: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'email' || field === 'displayName') && !fieldErrors[field]) fieldErrors[field] = issue.message;
      }
      setErrors(fieldErrors);
      return;
    }
    if (unavailableText) return;
    setErrors({});
    setSending(true);
    try {
      const answer = await invite(parsed.data);
      notifications.show({ color: 'green', message: `Invitation sent to ${answer.user.email}!` });
      setEmail('');
      setDisplayName('');
      setRates([]);
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'Failed to send invitation') });
    } finally {
      setSending(false);
    }
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="lg" maw={760}>
      <Stack gap={4} mb="lg">
        <Title order={2} fz="xl">
          Invite New Editor
        </Title>
        <Text c="gray.7">Send an invitation to a new photo editor</Text>
      </Stack>
      {jobTypes.error ? (
        <Alert color="red" role="alert">
          {apiErrorText(jobTypes.error, 'Failed to load job types')}
        </Alert>
      ) : !jobTypes.data ? (
        <PageLoader label="Loading job types…" />
      ) : (
        <form onSubmit={submit} noValidate aria-label="Invite editor">
          <Stack gap="md">
            <TextInput
              label="Email"
              type="email"
              autoComplete="off"
              withAsterisk
              value={email}
              onChange={(event) => {
                setEmail(event.currentTarget.value);
                setErrors(({ email: _, ...rest }) => rest);
              }}
              error={errors.email ?? unavailableText}
            />
            <TextInput
              label="Display name"
              autoComplete="off"
              withAsterisk
              value={displayName}
              onChange={(event) => {
                setDisplayName(event.currentTarget.value);
                setErrors(({ displayName: _, ...rest }) => rest);
              }}
              error={errors.displayName}
            />
            <JobTypeRateRows
              jobTypes={jobTypes.data}
              rates={rates}
              onChange={setRates}
              error={rates.length === 0 ? invitationMessages.noJobTypes : null}
            />
            <Group justify="flex-end">
              <Button
                type="submit"
                leftSection={<IconSend size={16} aria-hidden="true" />}
                loading={sending}
                disabled={rates.length === 0 || Boolean(unavailableText)}
              >
                Send Invitation
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Paper>
  );
}
