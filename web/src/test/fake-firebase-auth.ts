import { vi } from 'vitest';
import { rememberSignedIn } from '../lib/signed-in-hint';

/**
 * An in-memory stand-in for the Firebase Auth SDK: the one boundary component tests may fake,
 * since the real SDK needs a network and an auth server.
 */
export interface FakeFirebaseUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  photoURL: string | null;
}

type Listener = (user: FakeFirebaseUser | null) => void;

const state = {
  currentUser: null as FakeFirebaseUser | null,
  listeners: new Set<Listener>(),
  accounts: new Map<string, { password: string; user: FakeFirebaseUser }>(),
  nextUid: 1,
};

class FakeFirebaseError extends Error {
  constructor(readonly code: string) {
    super(`Firebase: Error (${code}).`);
    this.name = 'FirebaseError';
  }
}

export const firebaseError = (code: string) => new FakeFirebaseError(code);

const setCurrentUser = (user: FakeFirebaseUser | null) => {
  state.currentUser = user;
  for (const listener of state.listeners) listener(user);
};

const newUser = (fields: Partial<FakeFirebaseUser>): FakeFirebaseUser => ({
  uid: `uid-${state.nextUid++}`,
  email: null,
  displayName: null,
  photoURL: null,
  ...fields,
});

const fakeAuth = {
  get currentUser() {
    return state.currentUser;
  },
  authStateReady: async () => {},
};

export const firebaseAuthModule = {
  initializeAuth: vi.fn(() => fakeAuth),
  connectAuthEmulator: vi.fn(),
  browserLocalPersistence: {},
  indexedDBLocalPersistence: {},
  browserPopupRedirectResolver: {},
  onAuthStateChanged: vi.fn((_auth: unknown, listener: Listener) => {
    state.listeners.add(listener);
    queueMicrotask(() => listener(state.currentUser));
    return () => state.listeners.delete(listener);
  }),
  signInWithEmailAndPassword: vi.fn(async (_auth: unknown, email: string, password: string) => {
    const account = state.accounts.get(email);
    if (!account) throw firebaseError('auth/user-not-found');
    if (account.password !== password) throw firebaseError('auth/wrong-password');
    setCurrentUser(account.user);
    return { user: account.user };
  }),
  createUserWithEmailAndPassword: vi.fn(async (_auth: unknown, email: string, password: string) => {
    if (state.accounts.has(email)) throw firebaseError('auth/email-already-in-use');
    const user = newUser({ email });
    state.accounts.set(email, { password, user });
    setCurrentUser(user);
    return { user };
  }),
  updateProfile: vi.fn(async (user: FakeFirebaseUser, profile: { displayName?: string | null }) => {
    if (profile.displayName !== undefined) user.displayName = profile.displayName;
  }),
  signOut: vi.fn(async () => setCurrentUser(null)),
  getIdToken: vi.fn(async (user: FakeFirebaseUser) => `token-of-${user.uid}`),
  signInWithPopup: vi.fn(async (_auth: unknown, _provider: unknown, _resolver?: unknown) => {
    const user = newUser({ email: 'google.person@example.com', displayName: 'Google Person' });
    setCurrentUser(user);
    return { user };
  }),
  signInWithCredential: vi.fn(async () => {
    const user = newUser({ email: 'google.person@example.com', displayName: 'Google Person' });
    setCurrentUser(user);
    return { user };
  }),
  // Re-authentication before a sensitive action (features/profile/api/confirm-password.ts).
  EmailAuthProvider: { credential: vi.fn((email: string, password: string) => ({ email, password })) },
  reauthenticateWithCredential: vi.fn(
    async (user: FakeFirebaseUser, credential: { email: string; password: string }) => {
      const account = state.accounts.get(credential.email);
      if (!account || account.user.uid !== user.uid || account.password !== credential.password) {
        throw firebaseError('auth/invalid-credential');
      }
      return { user };
    },
  ),
  GoogleAuthProvider: class {
    static credential = vi.fn((idToken: string) => ({ idToken }));
    setCustomParameters = vi.fn();
  },
};

/** Test controls: who has an account, who is signed in. */
export const fakeFirebase = {
  reset() {
    state.currentUser = null;
    state.listeners.clear();
    state.accounts.clear();
    state.nextUid = 1;
    rememberSignedIn(false);
    for (const fn of Object.values(firebaseAuthModule)) if (vi.isMockFunction(fn)) fn.mockClear();
  },
  addAccount(email: string, password: string, fields: Partial<FakeFirebaseUser> = {}) {
    const user = newUser({ email, ...fields });
    state.accounts.set(email, { password, user });
    return user;
  },
  /** Signs a user in before the app starts, like a session restored from the browser's storage. */
  signInAs(fields: Partial<FakeFirebaseUser> = {}) {
    const user = newUser({ email: 'someone@example.com', ...fields });
    state.currentUser = user;
    // What the app itself notes when someone signs in, so that start-up knows to ask Firebase.
    rememberSignedIn(true);
    return user;
  },
};
