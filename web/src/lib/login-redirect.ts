import type { Location } from 'react-router';

/** What the login page is told about the page a signed-out visitor tried to open. */
interface LoginRedirectState {
  from: string;
}

export const LOGIN_PATH = '/login';

export const loginRedirectState = (location: Location): LoginRedirectState => ({
  from: `${location.pathname}${location.search}${location.hash}`,
});

/** The remembered origin, if any, and never the login or sign-up page itself. */
export const cameFromPath = (state: unknown): string | undefined => {
  if (!state || typeof state !== 'object' || !('from' in state) || typeof state.from !== 'string') return undefined;
  const from = state.from;
  return from.startsWith('/') && !from.startsWith('/login') && !from.startsWith('/signup') ? from : undefined;
};
