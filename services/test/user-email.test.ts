import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { firebaseAuth } from '../src/adapters/firebase-admin';
import { emailOwner, type UserRecord, usersWithEmail } from '../src/data/users';
import { repairUserEmails } from '../src/ops/duplicate-users';
import { DEMO_PASSWORD, restoreLostIdentities, seedAccount } from '../src/ops/seed';
import { aNewAccount, aPhotographer, as, aUserWithRoles, call, db, forgedToken, signIn, uniqueEmail } from './support';

/** One live account per email, whatever made the second identity. */
const liveRecords = async (email: string) =>
  (await usersWithEmail(email)).filter((u) => !u.userId.startsWith('invited-') && !u.deletedAt);

/** A second identity for an email, as an identity provider that lost the first account would mint. */
const anotherIdentityFor = (email: string) => ({ token: forgedToken({ sub: randomUUID(), email }) });

describe('one account per email', () => {
  it('refuses a second account for an email that has one, in any letter case, and writes nothing', async () => {
    const first = await aPhotographer();
    const second = anotherIdentityFor(first.email.toUpperCase());

    const response = await as(second).get('/api/auth/me');

    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      error: 'EMAIL_TAKEN',
      message: 'An account with this email address already exists. Sign in with that account instead.',
    });
    expect((await liveRecords(first.email)).map((u) => u.userId)).toEqual([first.uid]);
    expect(await emailOwner(first.email)).toBe(first.uid);
  });

  it('lets exactly one of two new identities with one email create the account when they race', async () => {
    const email = uniqueEmail('race');
    const identities = Array.from({ length: 6 }, () => anotherIdentityFor(email));

    const answers = await Promise.all(identities.map((identity) => as(identity).get('/api/auth/me')));

    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const winner = answers.find((a) => a.status === 200)!.body.id;
    expect((await liveRecords(email)).map((u) => u.userId)).toEqual([winner]);
    expect(await emailOwner(email)).toBe(winner);
  });

  it('gives the email to the account that signs up from an invitation, and to no other identity after it', async () => {
    const admin = await aUserWithRoles(['admin']);
    const email = uniqueEmail('invited');
    const invited = await as(admin).post('/api/admin/invite-editor', {
      email,
      displayName: 'Ivy Invited',
      jobTypeRates: [{ jobTypeId: 'hdr', ratePerPhotoCents: 200 }],
    });
    expect(invited.status).toBe(201);
    const placeholderId = invited.body.user.id as string;
    expect(await emailOwner(email)).toBe(placeholderId);

    // The invited editor signs in once (the web app asks who they are) before completing the sign-up.
    const account = await aNewAccount({ email });
    expect((await as(account).get('/api/auth/me')).status).toBe(200);
    expect(await emailOwner(email)).toBe(account.uid);

    expect((await as(anotherIdentityFor(email)).get('/api/auth/me')).status).toBe(409);
    expect((await liveRecords(email)).map((u) => u.userId)).toEqual([account.uid]);
  });
});

describe('the seed reconciles demo accounts by email', () => {
  it('makes the identity again under the existing record id when the identity provider lost it', async () => {
    const account = {
      email: uniqueEmail('demo'),
      displayName: 'Dana Demo',
      roles: ['photographer' as const],
      password: 'pw-123456',
    };
    const firstId = await seedAccount(account);
    // The emulator started empty: the account is gone and a new one has the email under another id.
    const auth = await firebaseAuth();
    await auth.deleteUser(firstId);
    const stranger = await auth.createUser({ email: account.email, password: 'another-pw' });
    expect(stranger.uid).not.toBe(firstId);

    const secondId = await seedAccount(account);

    expect(secondId).toBe(firstId);
    expect((await auth.getUserByEmail(account.email)).uid).toBe(firstId);
    const me = await as({ token: await signIn(account.email, account.password) }).get('/api/auth/me');
    expect(me.body.id).toBe(firstId);
    expect((await liveRecords(account.email)).map((u) => u.userId)).toEqual([firstId]);
  });
});

describe('accounts the auth emulator lost in a crash', () => {
  it('get their sign-in back under their own id, with the demo password', async () => {
    const photographer = await aPhotographer();
    await (await firebaseAuth()).deleteUser(photographer.uid);

    const restored = await restoreLostIdentities();

    expect(restored).toContain(photographer.email);
    const me = await as({ token: await signIn(photographer.email, DEMO_PASSWORD) }).get('/api/auth/me');
    expect(me.body.id).toBe(photographer.uid);
    expect(await restoreLostIdentities()).not.toContain(photographer.email);
  });
});

describe('merging the duplicates an older table holds', () => {
  /** A record written the way the seed wrote them before every account claimed its email. */
  const legacyRecord = async (email: string, createdAt: string, roles: UserRecord['roles'] = ['photographer']) => {
    const userId = `legacy-${randomUUID()}`;
    await db().user.create({ userId, email, displayName: 'Lee Legacy', roles, status: 'verified', createdAt }).go();
    // The old seed moved the active-admin counter with each admin record it made.
    if (roles.includes('admin'))
      await db().counter.update({ scope: 'users', name: 'activeAdmins' }).add({ value: 1 }).go();
    return userId;
  };

  it('keeps the record that owns orders, removes copies with nothing of their own, and claims the email', async () => {
    // The copy in use has an order; the copies before and after it have nothing.
    const photographer = await aPhotographer();
    const order = await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount: 3, name: 'Elm St' });
    expect(order.status).toBe(201);
    await db().userEmail.delete({ email: photographer.email }).go();
    const older = await legacyRecord(photographer.email, '2020-01-01T00:00:00.000Z');
    const newer = await legacyRecord(photographer.email, '2099-01-01T00:00:00.000Z', ['photographer', 'admin']);
    expect(await liveRecords(photographer.email)).toHaveLength(3);

    const merged = await repairUserEmails({ force: true });

    const mine = merged.find((m) => m.email === photographer.email);
    expect(mine).toEqual({
      email: photographer.email,
      kept: photographer.uid,
      retired: [],
      removed: expect.any(Array),
    });
    expect([...mine!.removed].sort()).toEqual([older, newer].sort());
    expect((await liveRecords(photographer.email)).map((u) => u.userId)).toEqual([photographer.uid]);
    expect(await emailOwner(photographer.email)).toBe(photographer.uid);
    // The kept record gains the roles any copy had; its orders are still its own.
    const me = await as(photographer).get('/api/auth/me');
    expect(me.body.roles.sort()).toEqual(['admin', 'photographer']);
    const mineOrders = await as(photographer).get('/api/orders/my');
    expect(mineOrders.body.orders.map((o: { id: string }) => o.id)).toContain(order.body.order.id);
  });

  it('keeps the copies that own orders as deleted accounts, their history intact', async () => {
    const first = await aPhotographer();
    const firstOrder = await as(first).post('/api/orders', { jobTypeId: 'hdr', photoCount: 1 });
    expect(firstOrder.status).toBe(201);
    // A second copy of the same person, made before the guard, with an order of its own.
    await db().userEmail.delete({ email: first.email }).go();
    const secondId = `legacy-${randomUUID()}`;
    await db()
      .user.create({
        userId: secondId,
        email: first.email,
        roles: ['photographer'],
        status: 'verified',
        createdAt: '2099-01-01T00:00:00.000Z',
      })
      .go();
    const secondOrder = await as({ token: forgedToken({ sub: secondId, email: first.email }) }).post('/api/orders', {
      jobTypeId: 'hdr',
      photoCount: 1,
    });
    expect(secondOrder.status).toBe(201);

    const merged = await repairUserEmails({ force: true });

    expect(merged.find((m) => m.email === first.email)).toEqual({
      email: first.email,
      kept: secondId,
      retired: [first.uid],
      removed: [],
    });
    expect((await liveRecords(first.email)).map((u) => u.userId)).toEqual([secondId]);
    const retired = await db().user.get({ userId: first.uid }).go();
    expect(retired.data?.deletedAt).toBeTruthy();
    expect((await db().order.get({ orderId: firstOrder.body.order.id }).go()).data?.photographerId).toBe(first.uid);
    // A deleted account is refused by the API.
    expect((await as(first).get('/api/auth/me')).status).toBe(403);
  });

  it('is a no-op on a table it has already repaired', async () => {
    await repairUserEmails({ force: true });
    expect(await repairUserEmails()).toEqual([]);
  });
});

describe('the API never answers for a lost identity as a new account', () => {
  it('answers 409, not a second record, for a token whose email belongs to another account', async () => {
    const photographer = await aPhotographer();
    const response = await call('/api/orders/my', { token: anotherIdentityFor(photographer.email).token });
    expect(response.status).toBe(409);
    expect((await liveRecords(photographer.email)).length).toBe(1);
  });
});
