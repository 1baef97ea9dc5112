import { Alert, Anchor, Button, List, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  type InvitationVerificationView,
  invitationMessages,
  PASSWORD_MIN_LENGTH,
} from '@marketplace/events/invitations';
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { getIdToken, signInWithEmail, signUpWithEmail } from '../../../lib/auth';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';
import { completeSignup } from '../api/complete-signup';
import type { InvitationLink } from '../api/use-invitation-verification';
import { isEmailAlreadyInUse, isWrongPassword, signupFailureText } from '../signup-failure';

type AccountMode = 'new' | 'existing';

interface FieldErrors {
  password?: string;
  confirmation?: string;
}

interface InvitationSignupFormProps {
  link: InvitationLink;
  invitation: InvitationVerificationView;
  /** True when we already know the email has an account, e.g. its owner is signed in on this browser. */
  hasExistingAccount: boolean;
  /** Called once the server has made the account an editor. */
  onJoined: (uid: string) => Promise<void>;
}

const fieldErrors = (mode: AccountMode, password: string, confirmation: string): FieldErrors => {
  if (mode === 'existing') return password ? {} : { password: 'Please enter your password' };
  if (password.length < PASSWORD_MIN_LENGTH) return { password: invitationMessages.passwordTooShort };
  if (password !== confirmation) return { confirmation: invitationMessages.passwordsDiffer };
  return {};
};

export function InvitationSignupForm({ link, invitation, hasExistingAccount, onJoined }: InvitationSignupFormProps) {
  const email = invitation.user?.email ?? link.email;
  const displayName = invitation.user?.displayName ?? '';
  const [mode, setMode] = useState<AccountMode>(hasExistingAccount ? 'existing' : 'new');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ratesHeadingId = useId();
  const passwordInput = useRef<HTMLInputElement>(null);
  const [focusPassword, setFocusPassword] = useState(false);
  // Once the identity provider has an account for this email, a retry after a server failure only repeats the server step.
  const accountUid = useRef<string | null>(null);

  const switchToExistingAccount = () => {
    setMode('existing');
    setPassword('');
    setConfirmation('');
    setErrors({});
    setFocusPassword(true);
  };

  // The field is disabled while the request runs, so focus waits until it is usable again.
  useEffect(() => {
    if (!focusPassword || busy) return;
    passwordInput.current?.focus();
    setFocusPassword(false);
  }, [focusPassword, busy]);

  const signInOrCreateAccount = async (): Promise<string> => {
    const user =
      mode === 'new' ? await signUpWithEmail(email, password, displayName) : await signInWithEmail(email, password);
    return user.uid;
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const problems = fieldErrors(mode, password, confirmation);
    setErrors(problems);
    setFailure(null);
    if (problems.password || problems.confirmation) return;

    setBusy(true);
    try {
      if (!accountUid.current) {
        try {
          accountUid.current = await signInOrCreateAccount();
        } catch (error) {
          if (mode === 'new' && isEmailAlreadyInUse(error)) switchToExistingAccount();
          else
            setFailure(
              mode === 'existing' && isWrongPassword(error)
                ? invitationMessages.wrongExistingPassword
                : signupFailureText(error),
            );
          return;
        }
      }
      // The account's own ID token lets the server check its email without admin credentials.
      const idToken = (await getIdToken()) ?? undefined;
      await completeSignup({ email: link.email, token: link.token, firebaseUid: accountUid.current, idToken });
      await onJoined(accountUid.current);
    } catch (error) {
      setFailure(signupFailureText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }} w="100%">
      <Stack gap={4} mb="lg">
        <Title order={1} fz={26}>
          Join as an editor
        </Title>
        <Text c="gray.7" fz="sm">
          {displayName ? `${displayName}, you` : 'You'} have been invited to edit real-estate photos for our
          photographers.
        </Text>
      </Stack>

      {invitation.rates.length > 0 && (
        <Stack gap={6} mb="lg">
          <Text fw={600} fz="sm" id={ratesHeadingId}>
            Your rates
          </Text>
          <List spacing={4} fz="sm" aria-labelledby={ratesHeadingId}>
            {invitation.rates.map((rate) => (
              <List.Item key={rate.jobTypeName}>
                {rate.jobTypeName}: <b>{formatMoney(rate.ratePerPhotoCents)}</b> per photo
              </List.Item>
            ))}
          </List>
        </Stack>
      )}
      {invitation.expiresAt && (
        <Text fz="sm" c="gray.7" mb="lg">
          This invitation expires on {formatDate(invitation.expiresAt)}.
        </Text>
      )}

      {mode === 'existing' && (
        <Alert color="blue" icon={<IconInfoCircle aria-hidden="true" />} mb="lg">
          You already have an account with this email. Enter its password to add editor access to it.
        </Alert>
      )}

      <form onSubmit={handleSubmit} noValidate aria-label="Editor sign-up">
        <Stack gap="md">
          <TextInput label="Email" value={email} readOnly variant="filled" autoComplete="email" />
          <TextInput label="Name" value={displayName} readOnly variant="filled" autoComplete="name" />
          <PasswordInput
            ref={passwordInput}
            label={mode === 'existing' ? 'Your existing password' : 'Password'}
            placeholder={
              mode === 'existing' ? 'The password you sign in with' : `At least ${PASSWORD_MIN_LENGTH} characters`
            }
            autoComplete={mode === 'existing' ? 'current-password' : 'new-password'}
            withAsterisk
            disabled={busy}
            value={password}
            error={errors.password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          {mode === 'new' && (
            <PasswordInput
              label="Confirm password"
              placeholder="Type the password again"
              autoComplete="new-password"
              withAsterisk
              disabled={busy}
              value={confirmation}
              error={errors.confirmation}
              onChange={(event) => setConfirmation(event.currentTarget.value)}
            />
          )}
          {failure && (
            <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
              {failure}
            </Alert>
          )}
          <Button type="submit" size="md" fullWidth loading={busy}>
            {mode === 'existing' ? 'Sign in and join' : 'Create editor account'}
          </Button>
        </Stack>
      </form>

      <Text ta="center" fz="sm" mt="lg">
        Already an editor?{' '}
        <Anchor component={Link} to="/login" fz="sm" fw={600}>
          Sign in
        </Anchor>
      </Text>
    </Paper>
  );
}
