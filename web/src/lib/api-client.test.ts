import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { fakeFirebase, firebaseAuthModule } from '../test/fake-firebase-auth';
import { ApiError, apiErrorText, apiGet, apiPost, apiPut } from './api-client';

describe('API client', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("sends the signed-in user's ID token as a Bearer token", async () => {
    const user = fakeFirebase.signInAs();
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: { ok: true } });
    await expect(apiGet('/api/auth/me')).resolves.toEqual({ ok: true });
    expect(fakeApi.requestsTo('GET', '/api/auth/me')[0]?.headers.get('Authorization')).toBe(
      `Bearer token-of-${user.uid}`,
    );
  });

  it('sends JSON with a JSON content type', async () => {
    fakeFirebase.signInAs();
    fakeApi.on('POST', '/api/feedback', { status: 201, body: { id: 'f1' } });
    await apiPost('/api/feedback', { type: 'general', message: 'Hello there!' });
    const [request] = fakeApi.requestsTo('POST', '/api/feedback');
    expect(request?.headers.get('Content-Type')).toBe('application/json');
    expect(request?.body).toEqual({ type: 'general', message: 'Hello there!' });
  });

  it.each([
    '/api/auth/verify-invitation?email=a%40b.c&token=t',
    '/api/auth/complete-signup',
    '/api/share/AbC-dEf_0123456789abcdefghijklmnopqrstuvwxyz1',
  ])('never sends a token to %s', async (url) => {
    fakeFirebase.signInAs();
    fakeApi.on('GET', new URL(url, 'http://localhost').pathname, { status: 200, body: {} });
    await apiGet(url);
    expect(fakeApi.fetch).toHaveBeenCalledTimes(1);
    expect(new Headers(fakeApi.fetch.mock.calls[0]?.[1]?.headers).has('Authorization')).toBe(false);
    expect(firebaseAuthModule.getIdToken).not.toHaveBeenCalled();
  });

  it('logs a token failure and sends the request without authorization', async () => {
    fakeFirebase.signInAs();
    firebaseAuthModule.getIdToken.mockRejectedValueOnce(new Error('token service unavailable'));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeApi.on('GET', '/api/orders/job-types', { status: 200, body: [] });
    await expect(apiGet('/api/orders/job-types')).resolves.toEqual([]);
    expect(fakeApi.requestsTo('GET', '/api/orders/job-types')[0]?.headers.has('Authorization')).toBe(false);
    expect(logged).toHaveBeenCalled();
  });

  it('sends the browser to /login on a 401 and still fails the call', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    fakeApi.on('GET', '/api/auth/me', { status: 401, body: { error: 'UNAUTHORIZED', message: 'Sign in to continue' } });
    await expect(apiGet('/api/auth/me')).rejects.toMatchObject({ status: 401, serverMessage: 'Sign in to continue' });
    expect(assign).toHaveBeenCalledWith('/login');
  });

  it("carries the server's error code and message so a screen can show them", async () => {
    fakeApi.on('POST', '/api/feedback', {
      status: 400,
      body: { error: 'VALIDATION_FAILED', message: 'Message must be at least 10 characters long' },
    });
    const failure = await apiPost('/api/feedback', {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(apiErrorText(failure, 'fallback')).toBe('Message must be at least 10 characters long');
  });

  it("carries the server's details, e.g. the version a conflicting save met", async () => {
    fakeApi.on('PUT', '/api/orders/o-1/sequence', {
      status: 409,
      body: { error: 'SEQUENCE_CHANGED', message: 'Changed elsewhere', details: { version: 4 } },
    });
    const failure = await apiPut('/api/orders/o-1/sequence', { keys: ['a'], version: 3 }).catch(
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ status: 409, code: 'SEQUENCE_CHANGED', details: { version: 4 } });
  });

  it("falls back to the screen's own words when the server says nothing", async () => {
    fakeApi.on('GET', '/api/feedback/my', { status: 502 });
    const failure = await apiGet('/api/feedback/my').catch((error: unknown) => error);
    expect(apiErrorText(failure, 'Could not load')).toBe('Could not load');
    expect(apiErrorText(new Error('boom'), 'Could not load')).toBe('Could not load');
  });
});
