import { type App, getApps, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { config } from '../config';

/**
 * Firebase Admin for the ops commands and the seed. With FIREBASE_AUTH_EMULATOR_HOST set it talks
 * to the emulator and needs no credentials; against a real project it uses the application
 * default credentials (GOOGLE_APPLICATION_CREDENTIALS).
 */
let app: App | undefined;

export const firebaseAuth = () => {
  app ??= getApps()[0] ?? initializeApp({ projectId: config().FIREBASE_PROJECT_ID });
  return getAuth(app);
};

/**
 * The account for an email, created with the given password when it does not exist yet. A
 * concurrent create (or the emulator still importing its saved accounts) can make the create
 * fail as a duplicate: then the account is there, so read it.
 */
export const ensureFirebaseAccount = async (account: { email: string; password: string; displayName: string }) => {
  const auth = firebaseAuth();
  const codeOf = (error: unknown) => (error as { code?: string }).code;
  try {
    return await auth.getUserByEmail(account.email);
  } catch (error) {
    if (codeOf(error) !== 'auth/user-not-found') throw error;
  }
  try {
    return await auth.createUser({ ...account, emailVerified: true });
  } catch (error) {
    if (codeOf(error) !== 'auth/email-already-exists') throw error;
    return auth.getUserByEmail(account.email);
  }
};
