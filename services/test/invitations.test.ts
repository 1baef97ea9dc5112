import { invitationMessages } from '@marketplace/events/invitations';
import { beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../src/config';
import { hashInvitationToken, inviteEditor } from '../src/data/invitations';
import { aNewAccount, aPhotographer, as, aUserWithRoles, call, db, type TestAccount, uniqueEmail } from './support';

/** One email as the SES stand-in keeps it (GET /store). */
interface StoredEmail {
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
}

const inbox = async (to: string) => {
  const response = await fetch(`${process.env.SES_ENDPOINT}/store`);
  const { emails } = (await response.json()) as { emails: StoredEmail[] };
  return emails.filter((e) => e.destination.to.includes(to));
};

const linkIn = (text: string) => {
  const match = text.match(/https?:\/\/\S+\/invitation\?\S+/);
  if (!match) throw new Error(`no invitation link in: ${text}`);
  return new URL(match[0]);
};

let admin: TestAccount;
let jobTypes: { id: string; name: string }[];

beforeAll(async () => {
  admin = await aUserWithRoles(['admin']);
  jobTypes = (await as(admin).get('/api/orders/job-types')).body;
});

const jobType = (name: string) => jobTypes.find((j) => j.name === name)!;

/** Invites a new editor at HDR $4.00 and Sky Replacement $2.50; returns the emailed link's parts. */
const anInvitation = async ({ email = uniqueEmail('editor'), displayName = 'Ada Pixel' } = {}) => {
  const response = await as(admin).post('/api/admin/invite-editor', {
    email,
    displayName,
    jobTypeRates: [
      { jobTypeId: jobType('HDR').id, ratePerPhotoCents: 400 },
      { jobTypeId: jobType('Sky Replacement').id, ratePerPhotoCents: 250 },
    ],
  });
  expect(response.status).toBe(201);
  const [mail] = await inbox(email);
  const link = linkIn(mail!.body.text!);
  return { email, token: link.searchParams.get('token')!, response, mail: mail! };
};

const verify = (email: string, token: string) =>
  call(`/api/auth/verify-invitation?${new URLSearchParams({ email, token })}`);

const completeSignup = (body: { email: string; token: string; firebaseUid: string; idToken?: string }) =>
  call('/api/auth/complete-signup', { method: 'POST', body });

const ratesOf = async (editorId: string) =>
  Object.fromEntries(
    (await db().editorRate.query.byEditor({ editorId }).go()).data.map((r) => [r.jobTypeId, r.ratePerPhotoCents]),
  );

describe('inviting an editor', () => {
  it('creates the invited editor with their rates and emails a link that expires in 7 days', async () => {
    const email = uniqueEmail('editor');

    const { response, mail, token } = await anInvitation({ email, displayName: 'Ada <Pixel>' });

    expect(response.body.user).toMatchObject({
      email,
      displayName: 'Ada <Pixel>',
      status: 'invited',
      roles: ['editor'],
    });
    const user = (await db().user.get({ userId: response.body.user.id }).go()).data!;
    expect(user).toMatchObject({
      status: 'invited',
      roles: ['editor'],
      isEditor: 'editor',
      invitedAt: expect.any(String),
    });
    expect(await ratesOf(user.userId)).toEqual({ [jobType('HDR').id]: 400, [jobType('Sky Replacement').id]: 250 });

    expect(mail.subject).toContain('PhotoEdit Marketplace');
    for (const body of [mail.body.text!, mail.body.html!]) {
      expect(body).toContain('PhotoEdit Marketplace');
      expect(body).toContain('HDR: $4.00 per photo');
      expect(body).toContain('Sky Replacement: $2.50 per photo');
      expect(body).toContain('7 days');
    }
    // The name is HTML-escaped in the HTML body.
    expect(mail.body.html).toContain('Ada &lt;Pixel&gt;');
    expect(mail.body.html).not.toContain('Ada <Pixel>');

    const link = linkIn(mail.body.text!);
    expect(`${link.origin}${link.pathname}`).toBe(`${process.env.WEB_URL ?? process.env.SITE_URL}/invitation`);
    expect(link.searchParams.get('email')).toBe(email);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    // Only the token's hash is stored.
    const stored = (
      await db()
        .invitation.get({ tokenHash: hashInvitationToken(token) })
        .go()
    ).data!;
    expect(stored).toMatchObject({ email, status: 'pending', userId: user.userId });
    expect(stored.expiresAt * 1000 - Date.now()).toBeGreaterThan(6.99 * 24 * 3600 * 1000);
    expect(stored.expiresAt * 1000 - Date.now()).toBeLessThanOrEqual(7 * 24 * 3600 * 1000);
  });

  it('revokes the earlier pending invitation when the same email is invited again', async () => {
    const first = await anInvitation();
    const second = await as(admin).post('/api/admin/invite-editor', {
      email: first.email,
      displayName: 'Ada Pixel',
      jobTypeRates: [{ jobTypeId: jobType('HDR').id, ratePerPhotoCents: 450 }],
    });
    expect(second.status).toBe(201);
    expect(second.body.user.id).toBe(first.response.body.user.id);

    expect((await verify(first.email, first.token)).body.valid).toBe(false);
    const mails = await inbox(first.email);
    expect(mails).toHaveLength(2);
    const newToken = linkIn(mails[1]!.body.text!).searchParams.get('token')!;
    expect((await verify(first.email, newToken)).body).toMatchObject({
      valid: true,
      rates: [{ jobTypeName: 'HDR', ratePerPhotoCents: 450 }],
    });
    expect(await ratesOf(second.body.user.id)).toEqual({ [jobType('HDR').id]: 450 });
  });

  it('refuses an email that already belongs to a verified editor with 409', async () => {
    const editor = await aUserWithRoles(['editor']);
    const response = await as(admin).post('/api/admin/invite-editor', {
      email: editor.email,
      displayName: 'Taken',
      jobTypeRates: [{ jobTypeId: jobType('HDR').id, ratePerPhotoCents: 400 }],
    });
    expect(response.status).toBe(409);
    expect(await inbox(editor.email)).toHaveLength(0);
  });

  it('refuses an unknown job type or no rates with 400 and writes nothing', async () => {
    const email = uniqueEmail('editor');
    const unknown = await as(admin).post('/api/admin/invite-editor', {
      email,
      displayName: 'Ada',
      jobTypeRates: [{ jobTypeId: 'no-such-job-type', ratePerPhotoCents: 400 }],
    });
    const none = await as(admin).post('/api/admin/invite-editor', { email, displayName: 'Ada', jobTypeRates: [] });

    expect(unknown.status).toBe(400);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe(invitationMessages.noJobTypes);
    expect((await db().user.query.byEmail({ email }).go()).data).toHaveLength(0);
    expect(await inbox(email)).toHaveLength(0);
  });

  it('revokes the invitation and answers 502 when the email cannot be sent, and inviting again works', async () => {
    const email = uniqueEmail('editor');
    const invite = () =>
      inviteEditor({
        email,
        displayName: 'Ada',
        jobTypeRates: [{ jobTypeId: jobType('HDR').id, ratePerPhotoCents: 400 }],
        invitedBy: admin.uid,
      });
    const sesEndpoint = process.env.SES_ENDPOINT;
    // Nothing listens on port 9: SES is unreachable.
    process.env.SES_ENDPOINT = 'http://127.0.0.1:9';
    resetConfig();
    const failure = await invite().catch((error: { statusCode?: number; message: string }) => error);
    process.env.SES_ENDPOINT = sesEndpoint;
    resetConfig();

    expect(failure).toMatchObject({ statusCode: 502, message: expect.stringContaining('could not be sent') });
    const invitations = (await db().invitation.query.byEmail({ email }).go()).data;
    expect(invitations.map((i) => i.status)).toEqual(['revoked']);
    const second = await as(admin).post('/api/admin/invite-editor', {
      email,
      displayName: 'Ada',
      jobTypeRates: [{ jobTypeId: jobType('HDR').id, ratePerPhotoCents: 400 }],
    });
    expect(second.status).toBe(201);
    expect(second.body.user.id).toBe(invitations[0]!.userId);
    expect(await inbox(email)).toHaveLength(1);
  });

  it('lets only admins invite: 403 for others, 401 without a token', async () => {
    const body = {
      email: uniqueEmail('editor'),
      displayName: 'Ada',
      jobTypeRates: [{ jobTypeId: jobType('HDR').id, ratePerPhotoCents: 400 }],
    };
    expect((await as(await aPhotographer()).post('/api/admin/invite-editor', body)).status).toBe(403);
    expect((await call('/api/admin/invite-editor', { method: 'POST', body })).status).toBe(401);
    expect(await inbox(body.email)).toHaveLength(0);
  });
});

describe('verifying an invitation link', () => {
  it('answers valid with the name and the rates offered', async () => {
    const { email, token } = await anInvitation({ displayName: 'Ada Pixel' });

    const response = await verify(email, token);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      valid: true,
      user: { email, displayName: 'Ada Pixel' },
      expiresAt: expect.any(String),
    });
    expect(response.body.rates).toEqual(
      expect.arrayContaining([
        { jobTypeName: 'HDR', ratePerPhotoCents: 400 },
        { jobTypeName: 'Sky Replacement', ratePerPhotoCents: 250 },
      ]),
    );
  });

  it('answers valid: false for an unknown token, another email and an expired invitation', async () => {
    const { email, token } = await anInvitation();
    const other = await anInvitation();
    await db()
      .invitation.patch({ tokenHash: hashInvitationToken(other.token) })
      .set({ expiresAt: 1000 })
      .go();

    for (const [e, t] of [
      [email, 'x'.repeat(43)],
      [uniqueEmail('someone'), token],
      [other.email, other.token],
    ] as const) {
      const response = await verify(e, t);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ valid: false, user: null, rates: [], expiresAt: null });
    }
  });

  it('answers 400 for a link without a token', async () => {
    expect((await call(`/api/auth/verify-invitation?email=${uniqueEmail()}`)).status).toBe(400);
  });
});

describe('completing an invited sign-up', () => {
  it('makes the new account a verified editor with the offered rates, and the placeholder goes', async () => {
    const { email, token, response } = await anInvitation({ displayName: 'Ada Pixel' });
    const account = await aNewAccount({ email });

    const signup = await completeSignup({ email, token, firebaseUid: account.uid, idToken: account.token });

    expect(signup.status).toBe(200);
    expect(signup.body.user).toMatchObject({
      id: account.uid,
      email,
      displayName: 'Ada Pixel',
      roles: ['editor'],
      status: 'verified',
    });
    expect(await ratesOf(account.uid)).toEqual({ [jobType('HDR').id]: 400, [jobType('Sky Replacement').id]: 250 });
    expect((await db().user.get({ userId: response.body.user.id }).go()).data).toBeNull();
    expect(await ratesOf(response.body.user.id)).toEqual({});
    expect((await as(account).get('/api/auth/me')).body).toMatchObject({ roles: ['editor'], status: 'verified' });
    expect((await verify(email, token)).body.valid).toBe(false);
  });

  it("checks the account's email from its own ID token, and refuses a sign-up without one", async () => {
    const { email, token } = await anInvitation();
    const account = await aNewAccount({ email });
    const stranger = await aNewAccount();

    const withStrangersToken = await completeSignup({
      email,
      token,
      firebaseUid: account.uid,
      idToken: stranger.token,
    });
    expect(withStrangersToken.status).toBe(403);
    const withGarbage = await completeSignup({ email, token, firebaseUid: account.uid, idToken: 'not-a-token' });
    expect(withGarbage.status).toBe(400);

    const withoutToken = await completeSignup({ email, token, firebaseUid: account.uid });
    expect(withoutToken.status).toBe(400);
    expect(withoutToken.body.message).toBe('The sign-in for this sign-up could not be verified');
    expect((await verify(email, token)).body.valid).toBe(true);

    const signup = await completeSignup({ email, token, firebaseUid: account.uid, idToken: account.token });
    expect(signup.status).toBe(200);
    expect(signup.body.user).toMatchObject({ id: account.uid, roles: ['editor'], status: 'verified' });
  });

  it('refuses the same token a second time with 409', async () => {
    const { email, token } = await anInvitation();
    const account = await aNewAccount({ email });
    expect((await completeSignup({ email, token, firebaseUid: account.uid, idToken: account.token })).status).toBe(200);

    const again = await completeSignup({ email, token, firebaseUid: account.uid, idToken: account.token });

    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This invitation has already been used');
  });

  it('refuses an expired invitation with 410 and leaves the account without a record', async () => {
    const { email, token } = await anInvitation();
    await db()
      .invitation.patch({ tokenHash: hashInvitationToken(token) })
      .set({ expiresAt: 1000 })
      .go();
    const account = await aNewAccount({ email });

    const signup = await completeSignup({ email, token, firebaseUid: account.uid, idToken: account.token });

    expect(signup.status).toBe(410);
    expect(signup.body.message).toBe(invitationMessages.invalid);
    expect((await db().user.get({ userId: account.uid }).go()).data).toBeNull();
  });

  it('refuses an unknown token and a token sent with another email with 400', async () => {
    const { email, token } = await anInvitation();
    const account = await aNewAccount({ email });

    for (const body of [
      { email, token: 'y'.repeat(43), firebaseUid: account.uid, idToken: account.token },
      { email: uniqueEmail('someone'), token, firebaseUid: account.uid, idToken: account.token },
    ]) {
      const signup = await completeSignup(body);
      expect(signup.status).toBe(400);
      expect(signup.body.message).toBe(invitationMessages.invalid);
    }
    expect((await verify(email, token)).body.valid).toBe(true);
  });

  it('refuses an account whose email is not the invited one with 403', async () => {
    const { email, token } = await anInvitation();
    const stranger = await aNewAccount();

    const signup = await completeSignup({ email, token, firebaseUid: stranger.uid, idToken: stranger.token });

    expect(signup.status).toBe(403);
    expect((await db().user.get({ userId: stranger.uid }).go()).data).toBeNull();
    expect((await verify(email, token)).body.valid).toBe(true);
  });

  it('lets an existing photographer accept: they keep photographer and gain editor with the rates', async () => {
    const photographer = await aPhotographer();
    const { token } = await anInvitation({ email: photographer.email });

    const signup = await completeSignup({
      email: photographer.email,
      token,
      firebaseUid: photographer.uid,
      idToken: photographer.token,
    });

    expect(signup.status).toBe(200);
    expect(signup.body.user.roles).toEqual(['photographer', 'editor']);
    expect(signup.body.user.status).toBe('verified');
    expect(await ratesOf(photographer.uid)).toEqual({
      [jobType('HDR').id]: 400,
      [jobType('Sky Replacement').id]: 250,
    });
    expect((await db().user.query.byEmail({ email: photographer.email }).go()).data).toHaveLength(1);
  });

  it('lets exactly one of two simultaneous completions with one token succeed', async () => {
    const { email, token } = await anInvitation();
    const account = await aNewAccount({ email });

    const results = await Promise.all([
      completeSignup({ email, token, firebaseUid: account.uid, idToken: account.token }),
      completeSignup({ email, token, firebaseUid: account.uid, idToken: account.token }),
    ]);

    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await db().user.get({ userId: account.uid }).go()).data?.roles).toEqual(['editor']);
  });
});
