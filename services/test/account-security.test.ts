import { LIVE_PATH } from '@marketplace/events/live-updates';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { firebaseAuth } from '../src/adapters/firebase-admin';
import { hashEmailChangeToken } from '../src/data/account-security';
import { browserFromUserAgent, recordSecurityActivity } from '../src/data/security-activity';
import { aPhotographer, as, call, db, forgedToken, signIn, type TestAccount, uniqueEmail, waitFor } from './support';

/**
 * Account security on the local stack: the recent-sign-in rule, a new password at the auth
 * emulator, an email change through the link the SES stand-in received (and two accounts racing
 * for one address), and 'Sign out of all other devices' refusing older tokens at once, closing
 * sockets and (through the identity worker) revoking older refresh tokens at the emulator.
 */
const PASSWORD = 'test-password';
const authUrl = () => `http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}`;

interface StoredEmail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
}

const inbox = async (to: string) => {
  const response = await fetch(`${process.env.SES_ENDPOINT}/store`);
  const { emails } = (await response.json()) as { emails: StoredEmail[] };
  return emails.filter((e) => e.destination.to.includes(to));
};

const mailTo = (to: string, subject: RegExp) =>
  waitFor(
    async () => (await inbox(to)).filter((m) => subject.test(m.subject)),
    (found) => found.length > 0,
    10_000,
  );

const tokenIn = (text: string) => {
  const match = text.match(/https?:\/\/\S+\/account\/confirm-email\?token=([A-Za-z0-9_-]+)/);
  if (!match) throw new Error(`no email-change link in: ${text}`);
  return match[1]!;
};

/** A sign-in at the emulator, as a browser's (its ID token and refresh token). */
const signInFully = async (email: string, password: string) => {
  const response = await fetch(
    `${authUrl()}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=test-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  const body = (await response.json()) as { idToken: string; refreshToken: string; error?: { message: string } };
  if (!response.ok) throw new Error(body.error?.message);
  return body;
};

/** What Identity Toolkit says of an ID token (the provider's own check, validSince included). */
const lookup = async (idToken: string) => {
  const response = await fetch(`${authUrl()}/identitytoolkit.googleapis.com/v1/accounts:lookup?key=test-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ idToken }),
  });
  const body = (await response.json()) as { error?: { message: string } };
  return response.ok ? 'valid' : body.error?.message;
};

/** A token of this account whose sign-in was `secondsAgo` ago (the emulator signs nothing). */
const staleToken = (account: TestAccount, secondsAgo: number) =>
  forgedToken({
    sub: account.uid,
    email: account.email,
    auth_time: Math.floor(Date.now() / 1000) - secondsAgo,
  });

const activity = async (account: { token: string }) =>
  (await as(account).get('/api/account/security-activity')).body as {
    activity: { kind: string; browser: string; at: string }[];
    nextCursor: string | null;
  };

const record = async (uid: string) => (await db().user.get({ userId: uid }).go({ consistent: true })).data!;
const guard = async (email: string) =>
  (await db().userEmail.get({ email }).go({ consistent: true })).data as { userId: string } | null;
const second = () => new Promise((resolve) => setTimeout(resolve, 1_100));

describe('browserFromUserAgent', () => {
  it('names the browser and the system in a few words', () => {
    const cases: [string | undefined, string][] = [
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
        'Chrome on macOS',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
        'Edge on Windows',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        'Safari on iOS',
      ],
      ['Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0', 'Firefox on Linux'],
      [
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
        'Chrome on Android',
      ],
      ['node', 'Unknown browser'],
      [undefined, 'Unknown browser'],
    ];
    for (const [agent, expected] of cases) expect(browserFromUserAgent(agent), String(agent)).toBe(expected);
  });
});

describe('GET /api/account/security-activity', () => {
  it("answers the caller's own rows, newest first, a page at a time", async () => {
    const [owner, other] = await Promise.all([aPhotographer(), aPhotographer()]);
    expect(await activity(owner)).toEqual({ activity: [], nextCursor: null });
    const start = Date.now() - 60_000;
    for (let i = 0; i < 23; i++) {
      await recordSecurityActivity(
        { userId: owner.uid, kind: 'password_changed', browser: 'Chrome on macOS' },
        new Date(start + i * 1000),
      );
    }
    const first = await activity(owner);
    expect(first.activity).toHaveLength(20);
    expect(first.activity[0]!.at).toBe(new Date(start + 22_000).toISOString());
    const next = await as(owner).get(`/api/account/security-activity?cursor=${first.nextCursor}`);
    expect(next.body.activity).toHaveLength(3);
    expect(next.body.nextCursor).toBeNull();
    expect(next.body.activity.at(-1).at).toBe(new Date(start).toISOString());
    // Nobody else's rows, and a cursor that does not read is a 400.
    expect((await activity(other)).activity).toEqual([]);
    expect((await as(owner).get('/api/account/security-activity?cursor=bm9wZQ')).status).toBe(400);
  });
});

describe('the recent sign-in rule', () => {
  it('refuses every sensitive action with a token from a sign-in over five minutes ago, writing nothing', async () => {
    const account = await aPhotographer();
    const stale = { token: staleToken(account, 6 * 60) };
    const before = await record(account.uid);

    const answers = await Promise.all([
      as(stale).post('/api/account/password', { newPassword: 'a-new-passw0rd' }),
      as(stale).post('/api/account/email-change', { newEmail: uniqueEmail('moved') }),
      as(stale).post('/api/account/sign-out-everywhere'),
    ]);

    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({
        error: 'RECENT_SIGN_IN_REQUIRED',
        message: 'Please enter your password again to continue.',
      });
    }
    expect(await record(account.uid)).toEqual(before);
    expect((await activity(account)).activity).toEqual([]);
    // A token from four minutes ago is recent enough to be read (the stale one reads too: only sensitive actions ask).
    expect((await as({ token: staleToken(account, 4 * 60) }).get('/api/account/security-activity')).status).toBe(200);
  });

  it('gives no fresh sign-in for a wrong current password', async () => {
    const account = await aPhotographer();
    await expect(signIn(account.email, 'not-the-password')).rejects.toThrow(/INVALID_(PASSWORD|LOGIN_CREDENTIALS)/);
  });
});

describe('POST /api/account/password', () => {
  it('sets the new password at Firebase, records it, and tells the account by email', async () => {
    const account = await aPhotographer();
    const newPassword = 'n3w-password-here';

    const changed = await call('/api/account/password', {
      method: 'POST',
      token: account.token,
      body: { newPassword },
    });

    expect(changed.status).toBe(200);
    await expect(signIn(account.email, PASSWORD)).rejects.toThrow(/INVALID_(PASSWORD|LOGIN_CREDENTIALS)/);
    const fresh = { token: await signIn(account.email, newPassword) };
    expect((await activity(fresh)).activity).toEqual([
      expect.objectContaining({ kind: 'password_changed', at: changed.body.changedAt }),
    ]);
    const [notice] = await mailTo(account.email, /password was changed/);
    expect(notice!.body.text).toContain('If this was not you');
    expect(notice!.body.text).not.toMatch(/unsubscribe/i);
  });

  it('enforces the password rules itself with a clear 400, changing nothing', async () => {
    const account = await aPhotographer();
    for (const newPassword of ['short1', 'onlyletters', '12345678901', ' padded-passw0rd ', 'x1'.repeat(65)]) {
      const answer = await as(account).post('/api/account/password', { newPassword });
      expect(answer.status, newPassword).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_FAILED');
      expect(answer.body.message).toMatch(/^Your new password/);
    }
    expect(await signIn(account.email, PASSWORD)).toBeTruthy();
    expect((await activity(account)).activity).toEqual([]);
  });
});

describe('changing the email address', () => {
  it('changes nothing until the link sent to the new address is opened, then moves the account in one go', async () => {
    const account = await aPhotographer();
    const newEmail = uniqueEmail('moved');

    const asked = await as(account).post('/api/account/email-change', { newEmail: newEmail.toUpperCase() });

    expect(asked.status).toBe(202);
    expect(asked.body.newEmail).toBe(newEmail);
    const [link] = await mailTo(newEmail, /Confirm your new email address/);
    const token = tokenIn(link!.body.text!);
    // Nothing moved yet: the old address still signs in and holds the guard; the new one is free.
    expect((await record(account.uid)).email).toBe(account.email);
    expect(await guard(account.email)).toEqual(expect.objectContaining({ userId: account.uid }));
    expect(await guard(newEmail)).toBeNull();
    // Only the hash of the token is stored.
    expect(
      (
        await db()
          .emailChange.get({ tokenHash: hashEmailChangeToken(token) })
          .go()
      ).data?.newEmail,
    ).toBe(newEmail);

    const shown = await call(`/api/account/email-change/${token}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ newEmail, expiresAt: expect.any(String) });
    expect((await record(account.uid)).email).toBe(account.email);

    const confirmed = await call(`/api/account/email-change/${token}`, { method: 'POST' });

    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ email: newEmail });
    expect((await record(account.uid)).email).toBe(newEmail);
    expect(await guard(newEmail)).toEqual(expect.objectContaining({ userId: account.uid }));
    expect(await guard(account.email)).toBeNull();
    expect((await as(account).get('/api/auth/me')).body.email).toBe(newEmail);
    const [notice] = await mailTo(account.email, /email address was changed/);
    expect(notice!.body.text).toContain(newEmail);
    expect((await activity(account)).activity.map((a) => a.kind)).toEqual(['email_changed', 'email_change_requested']);
    // The identity worker gives the Firebase account the new address: it signs in with it.
    const firebaseEmail = await waitFor(
      async () => (await (await firebaseAuth()).getUser(account.uid)).email,
      (email) => email === newEmail,
    );
    expect(firebaseEmail).toBe(newEmail);
    expect(await signIn(newEmail, PASSWORD)).toBeTruthy();
    // The link works once.
    expect((await call(`/api/account/email-change/${token}`, { method: 'POST' })).status).toBe(410);
  });

  it("refuses an address another account holds, the account's own, and bad input, writing nothing", async () => {
    const [account, holder] = await Promise.all([aPhotographer(), aPhotographer()]);
    const before = await record(account.uid);
    const taken = await as(account).post('/api/account/email-change', { newEmail: holder.email });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('That email address is already used by another account.');
    expect((await as(account).post('/api/account/email-change', { newEmail: account.email })).status).toBe(400);
    for (const newEmail of ['not-an-email', '', `${'x'.repeat(250)}@example.test`]) {
      expect((await as(account).post('/api/account/email-change', { newEmail })).status).toBe(400);
    }
    expect(await record(account.uid)).toEqual(before);
    expect((await activity(account)).activity).toEqual([]);
    expect((await call('/api/account/email-change/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
  });

  it('lets only the newest link work', async () => {
    const account = await aPhotographer();
    const [first, second] = [uniqueEmail('first'), uniqueEmail('second')];
    await as(account).post('/api/account/email-change', { newEmail: first });
    await as(account).post('/api/account/email-change', { newEmail: second });
    const firstToken = tokenIn((await mailTo(first, /Confirm/))[0]!.body.text!);
    const secondToken = tokenIn((await mailTo(second, /Confirm/))[0]!.body.text!);
    expect((await call(`/api/account/email-change/${firstToken}`, { method: 'POST' })).status).toBe(410);
    expect((await call(`/api/account/email-change/${secondToken}`, { method: 'POST' })).status).toBe(200);
    expect((await record(account.uid)).email).toBe(second);
  });

  it('gives one address to exactly one of two accounts confirming at once', async () => {
    const [a, b] = await Promise.all([aPhotographer(), aPhotographer()]);
    const contested = uniqueEmail('contested');
    expect((await as(a).post('/api/account/email-change', { newEmail: contested })).status).toBe(202);
    expect((await as(b).post('/api/account/email-change', { newEmail: contested })).status).toBe(202);
    const links = await waitFor(
      () => mailTo(contested, /Confirm/),
      (found) => found.length === 2,
    );
    const tokens = links.map((mail) => tokenIn(mail.body.text!));

    const answers = await Promise.all(
      tokens.map((token) => call(`/api/account/email-change/${token}`, { method: 'POST' })),
    );

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const owner = (await guard(contested))!.userId;
    const loser = owner === a.uid ? b : a;
    expect([a.uid, b.uid]).toContain(owner);
    expect((await record(owner)).email).toBe(contested);
    expect((await record(loser.uid)).email).toBe(loser.email);
    expect(await guard(loser.email)).toEqual(expect.objectContaining({ userId: loser.uid }));
  });
});

describe("'Sign out of all other devices'", () => {
  it('refuses older tokens at once, closes sockets, has Firebase refuse them too, and keeps a new sign-in', async () => {
    const account = await aPhotographer();
    const elsewhere = await signInFully(account.email, PASSWORD);
    const liveUrl = `${process.env.LIVE_ENDPOINT!.replace(/^http/, 'ws')}${LIVE_PATH}`;
    const socket = new WebSocket(`${liveUrl}?token=${encodeURIComponent(elsewhere.idToken)}`);
    const closed = new Promise<number>((done) => socket.on('close', (code) => done(code)));
    await new Promise((resolve, reject) => {
      socket.on('open', resolve);
      socket.on('error', reject);
    });
    expect((await as({ token: elsewhere.idToken }).get('/api/auth/me')).status).toBe(200);
    await second();

    const answer = await as(account).post('/api/account/sign-out-everywhere');

    expect(answer.status).toBe(200);
    // At once: the older token is refused by the API and by the live gateway.
    const refused = await as({ token: elsewhere.idToken }).get('/api/auth/me');
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('You were signed out of this device. Please sign in again.');
    const refusedSocket = await new Promise<string>((resolve) => {
      const again = new WebSocket(`${liveUrl}?token=${encodeURIComponent(elsewhere.idToken)}`);
      again.on('open', () => {
        again.close();
        resolve('connected');
      });
      again.on('unexpected-response', (_request, response) => resolve(String(response.statusCode)));
      again.on('error', () => resolve('error'));
    });
    expect(refusedSocket).toBe('401');
    expect(await closed).toBe(1000);
    // The browser that asked signs in again with the password it confirmed: that token works.
    const now = await signInFully(account.email, PASSWORD);
    expect((await as({ token: now.idToken }).get('/api/auth/me')).status).toBe(200);
    expect((await activity({ token: now.idToken })).activity).toEqual([
      expect.objectContaining({ kind: 'signed_out_everywhere' }),
    ]);
    // The identity worker sets the account's validSince at Firebase: the provider then refuses the
    // older tokens too. (The emulator records the moment of the call, and does not check refresh
    // tokens against it; Firebase takes the cutoff sent and refuses older refresh tokens.)
    const validAfter = await waitFor(
      async () => Date.parse((await (await firebaseAuth()).getUser(account.uid)).tokensValidAfterTime ?? '0'),
      (at) => at >= Date.parse(answer.body.signedOutBefore),
    );
    expect(validAfter).toBeGreaterThanOrEqual(Date.parse(answer.body.signedOutBefore));
    expect(await lookup(elsewhere.idToken)).toBe('TOKEN_EXPIRED');
    const [notice] = await mailTo(account.email, /signed out of all other devices/);
    expect(notice!.body.text).toContain('If this was not you');
  });
});
