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

/** The account for an email, created with the given password when it does not exist yet. */
export const ensureFirebaseAccount = async (account: { email: string; password: string; displayName: string }) => {
  const auth = firebaseAuth();
  try {
    return await auth.getUserByEmail(account.email);
  } catch (error) {
    if ((error as { code?: string }).code !== 'auth/user-not-found') throw error;
    return auth.createUser({ ...account, emailVerified: true });
  }
};
