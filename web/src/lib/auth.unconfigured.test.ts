import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { firebaseAuthModule } from '../test/fake-firebase-auth';
import { AuthNotConfiguredError, getIdToken, onAuthChange, signInWithEmail, signOut, signUpWithEmail } from './auth';

describe('authentication without a configured identity provider', () => {
  beforeAll(() => {
    vi.stubEnv('VITE_FIREBASE_API_KEY', '');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it('skips sign-out without an error', async () => {
    await expect(signOut()).resolves.toBeUndefined();
    expect(firebaseAuthModule.signOut).not.toHaveBeenCalled();
  });

  it('has no token to offer', async () => {
    await expect(getIdToken()).resolves.toBeNull();
  });

  it('calls an auth listener once, with nobody signed in', () => {
    const listener = vi.fn();
    onAuthChange(listener);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith(null);
  });

  it('fails sign-in and sign-up with a message saying credentials must be configured', async () => {
    await expect(signInWithEmail('pat@example.com', 'secret-password')).rejects.toBeInstanceOf(AuthNotConfiguredError);
    await expect(signUpWithEmail('pat@example.com', 'secret-password', 'Pat')).rejects.toThrow(/configure/);
  });
});
