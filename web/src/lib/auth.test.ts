import { describe, expect, it, vi } from 'vitest';
import { fakeFirebase, firebaseAuthModule } from '../test/fake-firebase-auth';
import { onAuthChange, signInWithEmail, signOut } from './auth';
import { maybeSignedIn } from './signed-in-hint';

describe('Firebase on first use', () => {
  it('starts signed out without loading Firebase when nobody has signed in here, and follows it from the sign-in on', async () => {
    fakeFirebase.addAccount('pat@example.com', 'secret-password');
    const listener = vi.fn();
    const stopListening = onAuthChange(listener);

    expect(listener).toHaveBeenCalledExactlyOnceWith(null);
    await vi.dynamicImportSettled();
    expect(firebaseAuthModule.initializeAuth).not.toHaveBeenCalled();

    const user = await signInWithEmail('pat@example.com', 'secret-password');
    expect(firebaseAuthModule.initializeAuth).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(listener).toHaveBeenLastCalledWith(expect.objectContaining({ uid: user.uid })));
    expect(maybeSignedIn()).toBe(true);

    await signOut();
    await vi.waitFor(() => expect(listener).toHaveBeenLastCalledWith(null));
    expect(maybeSignedIn()).toBe(false);
    stopListening();
  });
});

describe('a browser the signed-in hint has never seen', () => {
  const freshAuth = async () => {
    // Firebase not loaded yet, as at a page's start.
    vi.resetModules();
    return import('./auth');
  };

  it('keeps someone signed in before the hint existed: Firebase kept their sign-in, so it loads and answers', async () => {
    const user = fakeFirebase.signInAs({ email: 'kept@example.com' });
    localStorage.removeItem('marketplace.signedIn');
    vi.stubGlobal('indexedDB', { databases: async () => [{ name: 'firebaseLocalStorageDb', version: 1 }] });
    try {
      const auth = await freshAuth();
      const listener = vi.fn();
      const stopListening = auth.onAuthChange(listener);
      await vi.waitFor(() => expect(listener).toHaveBeenLastCalledWith(expect.objectContaining({ uid: user.uid })));
      expect(listener).not.toHaveBeenCalledWith(null);
      stopListening();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('starts a first visit signed out without loading Firebase, and remembers that', async () => {
    localStorage.removeItem('marketplace.signedIn');
    vi.stubGlobal('indexedDB', { databases: async () => [] });
    try {
      const auth = await freshAuth();
      firebaseAuthModule.initializeAuth.mockClear();
      const listener = vi.fn();
      const stopListening = auth.onAuthChange(listener);
      await vi.waitFor(() => expect(listener).toHaveBeenCalledExactlyOnceWith(null));
      await vi.dynamicImportSettled();
      expect(firebaseAuthModule.initializeAuth).not.toHaveBeenCalled();
      expect(maybeSignedIn()).toBe(false);
      stopListening();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
