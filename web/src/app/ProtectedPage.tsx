import { Alert, Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { Role } from '@marketplace/events/roles';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { PageLoader } from '../components/PageLoader';
import { useAuth } from '../lib/auth-context';
import { dashboardPathFor, PROFILE_LOAD_ERROR, useCurrentUser } from '../lib/current-user';
import { LOGIN_PATH, loginRedirectState } from '../lib/login-redirect';

// Written out rather than imported: the shared list's module also builds a zod schema, which would bloat every page.
const everyRole: readonly Role[] = ['photographer', 'editor', 'admin'];

function AccessDenied({ userRoles }: { userRoles: readonly Role[] }) {
  const navigate = useNavigate();
  // A page opened directly has no history to go back to; the user's own dashboard is the next best place.
  const goBack = () => ((window.history.state?.idx ?? 0) > 0 ? navigate(-1) : navigate(dashboardPathFor(userRoles)));
  return (
    <Center mih={360}>
      <Stack align="center" gap="sm" ta="center" maw={420}>
        <ThemeIcon size={56} radius="xl" color="red" variant="light" aria-hidden="true">
          <IconLock size={28} stroke={1.6} />
        </ThemeIcon>
        <Title order={1} fz={26}>
          Access Denied
        </Title>
        <Text c="dimmed">You don't have permission to access this page.</Text>
        <Button variant="default" onClick={goBack} mt="xs">
          Go Back
        </Button>
      </Stack>
    </Center>
  );
}

/**
 * Guards the pages below it: signed-out visitors go to /login (which remembers where they were going),
 * and a signed-in user without one of the allowed roles sees 'Access Denied'.
 */
export function ProtectedPage({ allowedRoles = everyRole }: { allowedRoles?: readonly Role[] }) {
  const { user, initializing } = useAuth();
  const location = useLocation();
  const { data: me, error } = useCurrentUser();

  if (initializing) return <PageLoader />;
  if (!user) return <Navigate to={LOGIN_PATH} replace state={loginRedirectState(location)} />;
  if (error) {
    return (
      <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} title="Something went wrong" maw={560}>
        {PROFILE_LOAD_ERROR}
      </Alert>
    );
  }
  if (!me) return <PageLoader label="Loading your profile…" />;
  if (!me.roles.some((role) => allowedRoles.includes(role))) return <AccessDenied userRoles={me.roles} />;
  return <Outlet />;
}
