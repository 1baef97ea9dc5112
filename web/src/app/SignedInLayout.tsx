import { Navigate, useLocation } from 'react-router';
import { PageLoader } from '../components/PageLoader';
import { useAuth } from '../lib/auth-context';
import { LiveUpdatesProvider } from '../lib/live-updates';
import { LOGIN_PATH, loginRedirectState } from '../lib/login-redirect';
import { NavigationShell } from './NavigationShell';

/**
 * Every signed-in page sits in the navigation shell, with the tab's live updates (its socket closes
 * when this layout leaves, on sign-out); signed-out visitors are sent to /login first.
 */
export function SignedInLayout() {
  const { user, initializing } = useAuth();
  const location = useLocation();
  if (initializing) return <PageLoader fullScreen />;
  if (!user) return <Navigate to={LOGIN_PATH} replace state={loginRedirectState(location)} />;
  return (
    <LiveUpdatesProvider uid={user.uid}>
      <NavigationShell user={user} />
    </LiveUpdatesProvider>
  );
}
