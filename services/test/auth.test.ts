import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../src/ops/seed';
import { aNewAccount, aPhotographer, as, call, db, forgedToken, signIn } from './support';

describe('signing in to the API', () => {
  it('answers the health check without a token', async () => {
    const response = await call('/api/health');
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('ok');
  });

  it('refuses a request with no token with 401', async () => {
    expect((await call('/api/auth/me')).status).toBe(401);
  });

  it('refuses a malformed token, an expired one and one issued for another project with 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const token of [
      'not-a-token',
      forgedToken({ exp: now - 60 }),
      forgedToken({ aud: 'someone-elses-project' }),
      forgedToken({ iss: 'https://securetoken.google.com/someone-elses-project' }),
    ]) {
      expect((await call('/api/auth/me', { token })).status).toBe(401);
    }
  });

  it('creates a verified photographer named from the token on the first call to me', async () => {
    const account = await aNewAccount({ displayName: 'Robin Lens' });
    expect((await db().user.get({ userId: account.uid }).go()).data).toBeNull();

    const me = await as(account).get('/api/auth/me');

    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: account.uid,
      email: account.email,
      displayName: 'Robin Lens',
      roles: ['photographer'],
      status: 'verified',
    });
    expect((await db().user.get({ userId: account.uid }).go()).data?.roles).toEqual(['photographer']);
  });

  it('creates one record when a new user sends many first requests at once', async () => {
    const account = await aNewAccount();
    const responses = await Promise.all(Array.from({ length: 10 }, () => as(account).get('/api/auth/me')));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(responses.map((r) => r.body.createdAt)).size).toBe(1);
  });

  it('returns the roles of the seeded demo photographer', async () => {
    const token = await signIn('photographer@example.com', DEMO_PASSWORD);
    const me = await call('/api/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.roles).toEqual(['photographer']);
  });

  it('turns a deactivated user away with 403 and a JSON error', async () => {
    const account = await aPhotographer();
    await db().user.patch({ userId: account.uid }).set({ isActive: false }).go();

    const me = await as(account).get('/api/auth/me');

    expect(me.status).toBe(403);
    expect(me.body).toEqual({
      error: 'FORBIDDEN',
      message: 'Your account has been deactivated. Please contact support.',
    });
  });

  it('answers 403 when the caller lacks every role the route allows', async () => {
    const account = await aPhotographer();
    await db().user.patch({ userId: account.uid }).set({ roles: [] }).go();

    const jobTypes = await as(account).get('/api/orders/job-types');

    expect(jobTypes.status).toBe(403);
    expect(jobTypes.body.error).toBe('FORBIDDEN');
    // Routes open to every signed-in user still answer.
    expect((await as(account).get('/api/auth/me')).status).toBe(200);
  });
});

describe('the JSON error shape', () => {
  it('answers an unknown API path with a JSON 404', async () => {
    const response = await call('/api/no-such-thing', { method: 'DELETE' });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'NOT_FOUND', message: 'No such API route: DELETE /api/no-such-thing' });
  });

  it('answers invalid JSON with 400', async () => {
    const account = await aPhotographer();
    const response = await as(account).send('PATCH', '/api/auth/profile', '{"displayName": ');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'INVALID_JSON', message: 'Request body is not valid JSON' });
  });
});
