import { Navigate, useLocation } from 'react-router';
import { PageLoader } from '../components/PageLoader';
import { useAuth } from '../lib/auth-context';
import { LOGIN_PATH, loginRedirectState } from '../lib/login-redirect';
import { NavigationShell } from './NavigationShell';

/** Every signed-in page sits in the navigation shell; signed-out visitors are sent to /login first. */
export function SignedInLayout() {
  const { user, initializing } = useAuth();
  const location = useLocation();
  if (initializing) return <PageLoader fullScreen />;
  if (!user) return <Navigate to={LOGIN_PATH} replace state={loginRedirectState(location)} />;
  return <NavigationShell user={user} />;
}
