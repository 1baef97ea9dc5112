import { Anchor, Button, Divider, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBrandGoogle } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { prepareSignIn, signInWithEmail, signInWithGoogle, signUpWithEmail } from '../../../lib/auth';
import {
  type AuthMode,
  describeEmailAuthFailure,
  describeGoogleAuthFailure,
  WEAK_PASSWORD_MESSAGE,
} from '../auth-errors';

const PASSWORD_MIN_LENGTH = 6;

interface AuthFormProps {
  mode: AuthMode;
  onModeChange: (mode: AuthMode) => void;
  /** Called once the identity provider has signed the user in; `fullName` only for a new account. */
  onSignedIn: (details: { uid: string; fullName?: string }) => Promise<void>;
}

const showError = (message: string) => notifications.show({ color: 'red', title: 'Sign-in problem', message });

/** Checks the form before anything is sent; returns what is wrong, if anything. */
const formProblem = (mode: AuthMode, fields: { fullName: string; email: string; password: string }) => {
  if (!fields.email.trim() || !fields.password) return 'Please fill in all fields';
  if (mode === 'signup' && !fields.fullName.trim()) return 'Please enter your name';
  if (fields.password.length < PASSWORD_MIN_LENGTH) return WEAK_PASSWORD_MESSAGE;
  return undefined;
};

export function AuthForm({ mode, onModeChange, onSignedIn }: AuthFormProps) {
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState<'email' | 'google' | null>(null);
  const isSignUp = mode === 'signup';

  const toggleMode = () => {
    setFullName('');
    setEmail('');
    setPassword('');
    onModeChange(isSignUp ? 'signin' : 'signup');
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = formProblem(mode, { fullName, email, password });
    if (problem) {
      showError(problem);
      return;
    }
    setBusy('email');
    try {
      const user = isSignUp
        ? await signUpWithEmail(email.trim(), password, fullName)
        : await signInWithEmail(email.trim(), password);
      await onSignedIn({ uid: user.uid, fullName: isSignUp ? fullName.trim() : undefined });
    } catch (error) {
      const failure = describeEmailAuthFailure(error, mode);
      showError(failure.message);
      // The switch keeps what was typed: the person most likely meant the other form with the same details.
      if (failure.switchTo) onModeChange(failure.switchTo);
    } finally {
      setBusy(null);
    }
  };

  const handleGoogle = async () => {
    setBusy('google');
    try {
      const user = await signInWithGoogle();
      await onSignedIn({ uid: user.uid });
    } catch (error) {
      showError(describeGoogleAuthFailure(error).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    // Sign-in code loads once the visitor turns to the form, so it is there by the time they submit.
    <Paper
      withBorder
      shadow="sm"
      p={{ base: 'lg', sm: 'xl' }}
      w="100%"
      maw={420}
      onPointerEnter={prepareSignIn}
      onFocus={prepareSignIn}
    >
      <Stack gap={4} mb="lg">
        <Title order={1} fz={26}>
          {isSignUp ? 'Create your account' : 'Welcome back'}
        </Title>
        <Text c="dimmed" fz="sm">
          {isSignUp ? 'Start ordering professional photo edits in minutes.' : 'Sign in to manage your orders and jobs.'}
        </Text>
      </Stack>

      <form onSubmit={handleSubmit} noValidate aria-label={isSignUp ? 'Sign up' : 'Sign in'}>
        <Stack gap="md">
          {isSignUp && (
            <TextInput
              label="Full name"
              placeholder="Jane Smith"
              autoComplete="name"
              withAsterisk
              value={fullName}
              onChange={(event) => setFullName(event.currentTarget.value)}
            />
          )}
          <TextInput
            label="Email"
            type="email"
            placeholder="you@example.com"
            autoComplete="email"
            withAsterisk
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
          <PasswordInput
            label="Password"
            placeholder={isSignUp ? 'At least 6 characters' : 'Your password'}
            autoComplete={isSignUp ? 'new-password' : 'current-password'}
            withAsterisk
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <Button type="submit" size="md" fullWidth loading={busy === 'email'} disabled={busy === 'google'}>
            {isSignUp ? 'Create Account' : 'Sign In'}
          </Button>
        </Stack>
      </form>

      <Divider label="or" labelPosition="center" my="lg" />

      <Button
        variant="default"
        size="md"
        fullWidth
        leftSection={<IconBrandGoogle size={18} aria-hidden="true" />}
        onClick={handleGoogle}
        loading={busy === 'google'}
        disabled={busy === 'email'}
      >
        Continue with Google
      </Button>

      <Text ta="center" fz="sm" mt="lg">
        {isSignUp ? 'Already have an account?' : "Don't have an account?"}{' '}
        <Anchor component="button" type="button" fz="sm" fw={600} onClick={toggleMode}>
          {isSignUp ? 'Sign in' : 'Sign up'}
        </Anchor>
      </Text>
    </Paper>
  );
}
