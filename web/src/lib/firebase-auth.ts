/**
 * Everything that touches the Firebase SDK. Only ./auth imports it, on demand, so Firebase is a
 * chunk of its own that a visitor nobody has signed in yet downloads only when they sign in.
 * Importing it creates the app's Firebase Auth instance.
 */
import { initializeApp } from 'firebase/app';
import {
  browserLocalPersistence,
  browserPopupRedirectResolver,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  EmailAuthProvider,
  getIdToken as firebaseGetIdToken,
  signOut as firebaseSignOut,
  GoogleAuthProvider,
  indexedDBLocalPersistence,
  initializeAuth,
  onAuthStateChanged,
  reauthenticateWithCredential,
  signInWithCredential,
  signInWithEmailAndPassword,
  signInWithPopup,
  type User,
  updateProfile,
} from 'firebase/auth';
import type { AuthUser } from './auth';

/** The identity the emulator's Google sign-in uses, since the real Google popup cannot load offline. */
const EMULATOR_GOOGLE_IDENTITY = {
  sub: 'google-demo-user',
  email: 'google.user@example.com',
  email_verified: true,
  name: 'Google Demo User',
};

const env = import.meta.env;
const app = initializeApp({
  apiKey: env.VITE_FIREBASE_API_KEY,
  authDomain: env.VITE_FIREBASE_AUTH_DOMAIN,
  projectId: env.VITE_FIREBASE_PROJECT_ID,
  appId: env.VITE_FIREBASE_APP_ID,
});
// No popup resolver at start-up: it would load Google's auth iframe on every page; the popup brings its own.
const auth = initializeAuth(app, { persistence: [indexedDBLocalPersistence, browserLocalPersistence] });
if (env.VITE_FIREBASE_AUTH_EMULATOR_URL) {
  connectAuthEmulator(auth, env.VITE_FIREBASE_AUTH_EMULATOR_URL, { disableWarnings: true });
}

const toAuthUser = (user: User): AuthUser => ({
  uid: user.uid,
  email: user.email,
  displayName: user.displayName,
  photoURL: user.photoURL,
});

export const signInWithEmail = async (email: string, password: string): Promise<AuthUser> => {
  const { user } = await signInWithEmailAndPassword(auth, email, password);
  return toAuthUser(user);
};

export const signUpWithEmail = async (email: string, password: string, displayName?: string): Promise<AuthUser> => {
  const { user } = await createUserWithEmailAndPassword(auth, email, password);
  const name = displayName?.trim();
  if (name) {
    await updateProfile(user, { displayName: name });
    // A fresh token carries the new name claim, which the API uses when it first creates the user.
    await firebaseGetIdToken(user, true);
  }
  return toAuthUser(user);
};

export const signInWithGoogle = async (): Promise<AuthUser> => {
  if (env.VITE_FIREBASE_AUTH_EMULATOR_URL) {
    const credential = GoogleAuthProvider.credential(JSON.stringify(EMULATOR_GOOGLE_IDENTITY));
    const { user } = await signInWithCredential(auth, credential);
    return toAuthUser(user);
  }
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: 'select_account' });
  const { user } = await signInWithPopup(auth, provider, browserPopupRedirectResolver);
  return toAuthUser(user);
};

export const signOut = (): Promise<void> => firebaseSignOut(auth);

/** Proves the signed-in user knows the password now; the fresh token carries a new auth_time. */
export const reauthenticateWithPassword = async (password: string): Promise<string> => {
  await auth.authStateReady();
  const user = auth.currentUser;
  if (!user?.email)
    throw Object.assign(new Error('Nobody is signed in with a password'), { code: 'auth/no-current-user' });
  await reauthenticateWithCredential(user, EmailAuthProvider.credential(user.email, password));
  return firebaseGetIdToken(user, true);
};

export const getIdToken = async ({ forceRefresh = false } = {}): Promise<string | null> => {
  // On a fresh page load the persisted user is restored asynchronously; wait for it.
  await auth.authStateReady();
  return auth.currentUser ? firebaseGetIdToken(auth.currentUser, forceRefresh) : null;
};

export const onAuthChange = (callback: (user: AuthUser | null) => void): (() => void) =>
  onAuthStateChanged(auth, (user) => callback(user ? toAuthUser(user) : null));
