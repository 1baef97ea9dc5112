import { firebaseKeptASignIn, onSignedInElsewhere, rememberSignedIn, signedInHint } from './signed-in-hint';

/** The signed-in identity as the app sees it; roles come from the API, not from here. */
export interface AuthUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  photoURL: string | null;
}

export class AuthNotConfiguredError extends Error {
  constructor() {
    super('Firebase authentication is not configured: set the VITE_FIREBASE_* credentials to enable sign-in.');
    this.name = 'AuthNotConfiguredError';
  }
}

export const isAuthConfigured = (): boolean => Boolean(import.meta.env.VITE_FIREBASE_API_KEY);

type FirebaseAuth = typeof import('./firebase-auth');

let firebaseAuth: Promise<FirebaseAuth> | undefined;
/** Listeners waiting for Firebase while nobody seemed signed in; each subscribes once it has loaded. */
const waitingForFirebase = new Set<(firebase: FirebaseAuth) => void>();

/**
 * Firebase is downloaded and started on first use, never at start-up for a visitor nobody has signed
 * in (see signed-in-hint); an unconfigured build never touches it at all.
 */
const loadFirebaseAuth = (): Promise<FirebaseAuth> => {
  if (!isAuthConfigured()) return Promise.reject(new AuthNotConfiguredError());
  if (!firebaseAuth) {
    firebaseAuth = import('./firebase-auth');
    void firebaseAuth.then((firebase) => {
      for (const subscribe of waitingForFirebase) subscribe(firebase);
      waitingForFirebase.clear();
    });
  }
  return firebaseAuth;
};

if (typeof window !== 'undefined') {
  onSignedInElsewhere(() => {
    if (isAuthConfigured()) void loadFirebaseAuth();
  });
}

/** Starts downloading Firebase ahead of a sign-in, e.g. when the visitor turns to the sign-in form. */
export const prepareSignIn = (): void => {
  if (isAuthConfigured()) loadFirebaseAuth().catch((error: unknown) => console.error('Could not load sign-in', error));
};

const signedIn = (user: AuthUser): AuthUser => {
  rememberSignedIn(true);
  return user;
};

export const signInWithEmail = async (email: string, password: string): Promise<AuthUser> =>
  signedIn(await (await loadFirebaseAuth()).signInWithEmail(email, password));

export const signUpWithEmail = async (email: string, password: string, displayName?: string): Promise<AuthUser> =>
  signedIn(await (await loadFirebaseAuth()).signUpWithEmail(email, password, displayName));

export const signInWithGoogle = async (): Promise<AuthUser> =>
  signedIn(await (await loadFirebaseAuth()).signInWithGoogle());

/** Signing out of an unconfigured app is a no-op: nobody can be signed in. */
export const signOut = async (): Promise<void> => {
  if (!isAuthConfigured()) return;
  await (await loadFirebaseAuth()).signOut();
  rememberSignedIn(false);
};

/** Re-authenticates the signed-in user with their password; returns the fresh ID token (see confirm-password). */
export const reauthenticateWithPassword = async (password: string): Promise<string> =>
  (await loadFirebaseAuth()).reauthenticateWithPassword(password);

/**
 * The current user's ID token, or null when nobody is signed in or auth is not configured.
 * `forceRefresh` asks the identity provider for a new one even if the kept one has not expired.
 */
export const getIdToken = async ({ forceRefresh = false } = {}): Promise<string | null> => {
  if (!isAuthConfigured()) return null;
  return (await loadFirebaseAuth()).getIdToken({ forceRefresh });
};

/**
 * Calls back with the signed-in user on every change; once with null when auth is not configured.
 * When this browser has had nobody signed in, it answers null without loading Firebase, and
 * follows Firebase from the moment something (a sign-in) loads it.
 */
export const onAuthChange = (callback: (user: AuthUser | null) => void): (() => void) => {
  if (!isAuthConfigured()) {
    callback(null);
    return () => {};
  }
  let unsubscribe: (() => void) | undefined;
  let listening = true;
  const subscribe = (firebase: FirebaseAuth) => {
    if (!listening) return;
    unsubscribe = firebase.onAuthChange((user) => {
      rememberSignedIn(user !== null);
      callback(user);
    });
  };
  const follow = () =>
    loadFirebaseAuth().then(subscribe, (error: unknown) => {
      console.error('Could not load sign-in', error);
      callback(null);
    });
  const signedOut = () => {
    callback(null);
    waitingForFirebase.add(subscribe);
  };
  const hint = firebaseAuth ? 'yes' : signedInHint();
  if (hint === 'yes') void follow();
  else if (hint === 'no') signedOut();
  else {
    // A browser the hint has never seen: Firebase's own store tells a sign-in from before the hint.
    void firebaseKeptASignIn().then((kept) => {
      if (!listening) return;
      if (kept) void follow();
      else {
        rememberSignedIn(false);
        signedOut();
      }
    });
  }
  return () => {
    listening = false;
    waitingForFirebase.delete(subscribe);
    unsubscribe?.();
  };
};
