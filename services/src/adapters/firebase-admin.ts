import type { App, ServiceAccount } from 'firebase-admin/app';
import type { Auth } from 'firebase-admin/auth';
import { config } from '../config';

/**
 * Firebase Admin for the identity worker, the ops commands and the seed. With
 * FIREBASE_AUTH_EMULATOR_HOST set it talks to the emulator and needs no credentials; against a
 * real project it uses the application default credentials (GOOGLE_APPLICATION_CREDENTIALS).
 *
 * No route imports this module: the SDK (with its JWT, HTTP and gRPC dependencies) is the largest
 * thing a function can bundle, so what a request needs of Firebase is done by a worker (sign-in
 * disabled or enabled, workers/sync-sign-in.ts) or without the SDK (an ID token checked with the
 * project id, adapters/id-token.ts). It is still loaded on first use.
 */
let app: App | undefined;

const firebaseSdk = async () => {
  const [appModule, authModule] = await Promise.all([import('firebase-admin/app'), import('firebase-admin/auth')]);
  return { ...appModule, ...authModule };
};

export const firebaseAuth = async () => {
  const { getApps, initializeApp, getAuth } = await firebaseSdk();
  app ??= getApps()[0] ?? initializeApp({ projectId: config().FIREBASE_PROJECT_ID });
  return getAuth(app);
};

/**
 * The account for an email, created with the given password when it does not exist yet. A
 * concurrent create (or the emulator still importing its saved accounts) can make the create
 * fail as a duplicate: then the account is there, so read it.
 */
export const ensureFirebaseAccount = async (account: {
  email: string;
  password: string;
  displayName: string;
  /** The id the account must have: the marketplace's record for this email (see the seed). */
  uid?: string;
}) => {
  const auth = await firebaseAuth();
  const codeOf = (error: unknown) => (error as { code?: string }).code;
  const { uid, ...fields } = account;
  try {
    const existing = await auth.getUserByEmail(account.email);
    if (!uid || existing.uid === uid) return existing;
    // The identity provider has this email under another id (it lost the account and a new one
    // was made): give the email back to the id the marketplace's records belong to.
    await auth.deleteUser(existing.uid);
  } catch (error) {
    if (codeOf(error) !== 'auth/user-not-found') throw error;
  }
  try {
    return await auth.createUser({ ...fields, ...(uid ? { uid } : {}), emailVerified: true });
  } catch (error) {
    if (codeOf(error) !== 'auth/email-already-exists' && codeOf(error) !== 'auth/uid-already-exists') throw error;
    return auth.getUserByEmail(account.email);
  }
};

let credentialed: Promise<Auth> | undefined;

/**
 * Firebase Admin for the functions granted 'identity:admin' (the identity worker). In the cloud it
 * signs in with the service account key kept in Secrets Manager (FIREBASE_ADMIN_SECRET_ARN); with
 * the emulator, or without a secret (application default credentials), it is the same client as
 * `firebaseAuth`.
 */
export const identityAdmin = () => {
  credentialed ??= (async () => {
    const { FIREBASE_ADMIN_SECRET_ARN, AWS_REGION, FIREBASE_PROJECT_ID } = config();
    if (!FIREBASE_ADMIN_SECRET_ARN || process.env.FIREBASE_AUTH_EMULATOR_HOST) return firebaseAuth();
    const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
    const secrets = new SecretsManagerClient({ region: AWS_REGION });
    const { SecretString } = await secrets.send(new GetSecretValueCommand({ SecretId: FIREBASE_ADMIN_SECRET_ARN }));
    const { getApps, initializeApp, getAuth, cert } = await firebaseSdk();
    const key = JSON.parse(SecretString ?? '{}') as { private_key?: string; client_email?: string };
    if (!key.private_key || !key.client_email) {
      throw new Error(
        'The Firebase admin secret must hold a service account key (JSON with private_key, client_email)',
      );
    }
    const named = getApps().find((existing) => existing.name === 'identity-admin');
    return getAuth(
      named ??
        initializeApp({ credential: cert(key as ServiceAccount), projectId: FIREBASE_PROJECT_ID }, 'identity-admin'),
    );
  })();
  return credentialed;
};

/**
 * Stops an account signing in (revoking its refresh tokens, so open sessions end within the hour
 * an ID token lives) or lets it sign in again. Both are idempotent. An account the provider does
 * not know has nothing to disable: the user record's standing still keeps it out of the API.
 */
export const setSignInDisabled = async (uid: string, disabled: boolean) => {
  const auth = await identityAdmin();
  try {
    await auth.updateUser(uid, { disabled });
    if (disabled) await auth.revokeRefreshTokens(uid);
    return 'updated' as const;
  } catch (error) {
    if ((error as { code?: string }).code === 'auth/user-not-found') return 'no-account' as const;
    throw error;
  }
};
