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
