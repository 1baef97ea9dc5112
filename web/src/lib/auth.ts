import { initializeApp } from 'firebase/app';
import {
  type Auth,
  browserLocalPersistence,
  browserPopupRedirectResolver,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  getIdToken as firebaseGetIdToken,
  signOut as firebaseSignOut,
  GoogleAuthProvider,
  indexedDBLocalPersistence,
  initializeAuth,
  onAuthStateChanged,
  signInWithCredential,
  signInWithEmailAndPassword,
  signInWithPopup,
  type User,
  updateProfile,
} from 'firebase/auth';

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

/** The identity the emulator's Google sign-in uses, since the real Google popup cannot load offline. */
const EMULATOR_GOOGLE_IDENTITY = {
  sub: 'google-demo-user',
  email: 'google.user@example.com',
  email_verified: true,
  name: 'Google Demo User',
};

export const isAuthConfigured = (): boolean => Boolean(import.meta.env.VITE_FIREBASE_API_KEY);

const isEmulatorMode = (): boolean => Boolean(import.meta.env.VITE_FIREBASE_AUTH_EMULATOR_URL);

let firebaseAuth: Auth | null | undefined;

/** Created on first use so that an unconfigured build never touches Firebase at all. */
const getFirebaseAuth = (): Auth | null => {
  if (firebaseAuth !== undefined) return firebaseAuth;
  if (!isAuthConfigured()) {
    firebaseAuth = null;
    return firebaseAuth;
  }
  const env = import.meta.env;
  const app = initializeApp({
    apiKey: env.VITE_FIREBASE_API_KEY,
    authDomain: env.VITE_FIREBASE_AUTH_DOMAIN,
    projectId: env.VITE_FIREBASE_PROJECT_ID,
    appId: env.VITE_FIREBASE_APP_ID,
  });
  // No popup resolver at start-up: it would load Google's auth iframe on every page; the popup brings its own.
  firebaseAuth = initializeAuth(app, { persistence: [indexedDBLocalPersistence, browserLocalPersistence] });
  if (env.VITE_FIREBASE_AUTH_EMULATOR_URL) {
    connectAuthEmulator(firebaseAuth, env.VITE_FIREBASE_AUTH_EMULATOR_URL, { disableWarnings: true });
  }
  return firebaseAuth;
};

const requireAuth = (): Auth => {
  const auth = getFirebaseAuth();
  if (!auth) throw new AuthNotConfiguredError();
  return auth;
};

const toAuthUser = (user: User): AuthUser => ({
  uid: user.uid,
  email: user.email,
  displayName: user.displayName,
  photoURL: user.photoURL,
});

export const signInWithEmail = async (email: string, password: string): Promise<AuthUser> => {
  const { user } = await signInWithEmailAndPassword(requireAuth(), email, password);
  return toAuthUser(user);
};

export const signUpWithEmail = async (email: string, password: string, displayName?: string): Promise<AuthUser> => {
  const { user } = await createUserWithEmailAndPassword(requireAuth(), email, password);
  const name = displayName?.trim();
  if (name) {
    await updateProfile(user, { displayName: name });
    // A fresh token carries the new name claim, which the API uses when it first creates the user.
    await firebaseGetIdToken(user, true);
  }
  return toAuthUser(user);
};

export const signInWithGoogle = async (): Promise<AuthUser> => {
  const auth = requireAuth();
  if (isEmulatorMode()) {
    const credential = GoogleAuthProvider.credential(JSON.stringify(EMULATOR_GOOGLE_IDENTITY));
    const { user } = await signInWithCredential(auth, credential);
    return toAuthUser(user);
  }
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: 'select_account' });
  const { user } = await signInWithPopup(auth, provider, browserPopupRedirectResolver);
  return toAuthUser(user);
};

/** Signing out of an unconfigured app is a no-op: nobody can be signed in. */
export const signOut = async (): Promise<void> => {
  const auth = getFirebaseAuth();
  if (!auth) return;
  await firebaseSignOut(auth);
};

/** The current user's ID token, or null when nobody is signed in or auth is not configured. */
export const getIdToken = async (): Promise<string | null> => {
  const auth = getFirebaseAuth();
  if (!auth) return null;
  // On a fresh page load the persisted user is restored asynchronously; wait for it.
  await auth.authStateReady();
  return auth.currentUser ? firebaseGetIdToken(auth.currentUser) : null;
};

/** Calls back with the signed-in user on every change; once with null when auth is not configured. */
export const onAuthChange = (callback: (user: AuthUser | null) => void): (() => void) => {
  const auth = getFirebaseAuth();
  if (!auth) {
    callback(null);
    return () => {};
  }
  return onAuthStateChanged(auth, (user) => callback(user ? toAuthUser(user) : null));
};
