import { Box, Center, Stack } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import type { MeView } from '@marketplace/events/users';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import { BRAND_NAME, BrandMark } from '../../../components/BrandMark';
import { ApiError, apiPatch } from '../../../lib/api-client';
import { signOut } from '../../../lib/auth';
import { useAuth } from '../../../lib/auth-context';
import {
  currentUserKey,
  fetchCurrentUser,
  landingPathAfterSignIn,
  PROFILE_LOAD_ERROR,
  useCurrentUser,
} from '../../../lib/current-user';
import { cameFromPath } from '../../../lib/login-redirect';
import type { AuthMode } from '../auth-errors';
import { AuthForm } from '../components/AuthForm';
import { ProductHighlights } from '../components/ProductHighlights';

/**
 * Without a profile the app cannot work, so a half-finished sign-in is undone rather than left
 * behind. A session the account ended (a password or email change, 'Sign out of all other
 * devices') is refused with 401 and the server's reason, which is said as it is: it is no fault.
 */
const failSignIn = async (error: unknown) => {
  const sessionEnded = error instanceof ApiError && error.status === 401 && error.serverMessage;
  if (sessionEnded) notifications.show({ id: 'profile-load-error', color: 'blue', message: error.serverMessage });
  else {
    console.error('Could not load the signed-in user', error);
    notifications.show({ id: 'profile-load-error', color: 'red', message: PROFILE_LOAD_ERROR });
  }
  await signOut().catch((signOutError: unknown) =>
    console.error('Sign-out after a failed sign-in failed', signOutError),
  );
};

/** Records the name given at sign-up; a failure here must not stop the sign-up, the name can be set later. */
const saveFullName = async (fullName: string): Promise<MeView | undefined> => {
  try {
    return await apiPatch<MeView>('/api/auth/profile', { displayName: fullName });
  } catch (error) {
    console.error('Could not save the name given at sign-up', error);
    return undefined;
  }
};

/** /login and /signup: one page whose form is chosen by the address. */
export function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const { user, initializing } = useAuth();
  const mode: AuthMode = location.pathname === '/signup' ? 'signup' : 'signin';
  const cameFrom = cameFromPath(location.state);
  useDocumentTitle(`${mode === 'signup' ? 'Sign up' : 'Sign in'} · ${BRAND_NAME}`);

  // Someone who is already signed in when the page opens goes straight on; someone signing in here waits for the form.
  const [signedInOnArrival, setSignedInOnArrival] = useState<boolean | null>(null);
  useEffect(() => {
    if (!initializing && signedInOnArrival === null) setSignedInOnArrival(user !== null);
  }, [initializing, user, signedInOnArrival]);
  const { data: me, error: meError } = useCurrentUser({ enabled: signedInOnArrival === true });

  useEffect(() => {
    if (signedInOnArrival && me) navigate(landingPathAfterSignIn(me.roles, cameFrom), { replace: true });
  }, [signedInOnArrival, me, cameFrom, navigate]);
  useEffect(() => {
    if (meError) void failSignIn(meError);
  }, [meError]);

  const changeMode = useCallback(
    (next: AuthMode) => navigate(next === 'signup' ? '/signup' : '/login', { replace: true, state: location.state }),
    [navigate, location.state],
  );

  const handleSignedIn = async ({ uid, fullName }: { uid: string; fullName?: string }) => {
    try {
      const signedInUser = (fullName ? await saveFullName(fullName) : undefined) ?? (await fetchCurrentUser());
      await mutate(currentUserKey(uid), signedInUser, { revalidate: false });
      navigate(landingPathAfterSignIn(signedInUser.roles, cameFrom), { replace: true });
    } catch (error) {
      await failSignIn(error);
    }
  };

  return (
    <Box mih="100dvh" style={{ display: 'flex', flexWrap: 'wrap' }} bg="gray.0">
      <Box
        visibleFrom="md"
        p={56}
        style={{
          flex: '1 1 45%',
          background:
            'linear-gradient(160deg, var(--mantine-color-harbor-9) 0%, var(--mantine-color-harbor-7) 60%, var(--mantine-color-harbor-5) 100%)',
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'space-between',
          gap: 48,
        }}
      >
        <BrandMark inverted />
        <Box maw={520}>
          <ProductHighlights inverted />
        </Box>
        <Box />
      </Box>
      <Center component="main" style={{ flex: '1 1 55%' }} p={{ base: 'md', sm: 'xl' }}>
        <Stack align="center" gap="xl" w="100%" maw={420} py="xl">
          <Box hiddenFrom="md">
            <BrandMark />
          </Box>
          <AuthForm mode={mode} onModeChange={changeMode} onSignedIn={handleSignedIn} />
          <Box hiddenFrom="md" w="100%" px="xs">
            <ProductHighlights />
          </Box>
        </Stack>
      </Center>
    </Box>
  );
}
