import { randomUUID } from 'node:crypto';
import type { AdminUserView } from '@marketplace/events/admin';
import type { UserEventType } from '@marketplace/events/user-events';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { firebaseAuth } from '../src/adapters/firebase-admin';
import { workers } from '../src/workers';
import { userEventFromStreamRecord } from '../src/workers/outbox-message';
import { handler } from '../src/workers/sync-sign-in';
import {
  aPhotographer,
  as,
  aUserWithRoles,
  call,
  db,
  outboxStreamRecord,
  signIn,
  sqsControl,
  sqsEvent,
  type TestAccount,
  waitFor,
} from './support';

/**
 * Suspending, deleting and reactivating an account: the route writes the standing and its user
 * event in one transaction; the identity worker makes Firebase follow, retried, idempotent, and
 * always applying the standing the table holds. The Firebase outage is the auth fault switch in
 * front of the emulator (services/local/auth-faults.ts), confined to one account's uid.
 */
const DEACTIVATED = 'Your account has been deactivated. Please contact support.';
const identity = workers.find((w) => w.queue === 'identity')!;
const queueUrl = (queue: string) => JSON.parse(process.env.QUEUE_URLS!)[queue] as string;

/** The auth fault switch: Firebase fails every request about this account until cleared. */
const authFaults = async (method: 'GET' | 'POST' | 'DELETE', body?: { match: string; times?: number }) => {
  const response = await fetch(`http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}/__faults`, {
    method,
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`auth faults: ${response.status} ${await response.text()}`);
  return (await response.json()) as { faults: { match: string; refused: number }[] };
};
const refusedFor = async (uid: string) => (await authFaults('GET')).faults.find((f) => f.match === uid)?.refused ?? 0;

const firebaseDisabled = async (uid: string) => (await (await firebaseAuth()).getUser(uid)).disabled;
const record = async (uid: string) => (await db().user.get({ userId: uid }).go({ consistent: true })).data!;

/** The user events of this account that reached a queue (duplicates included). */
const userEventsSent = async (queue: string, uid: string) => {
  const { Messages } = (await sqsControl('Sent', { QueueUrl: queueUrl(queue), BodyContains: uid })) as {
    Messages: { body: string }[];
  };
  return Messages.map((m) => userEventFromStreamRecord(m.body)).filter((e) => e?.userId === uid);
};

/** A stream record of a user event that never went through the outbox, for deliveries of our own. */
const syntheticRecord = (userId: string, eventType: UserEventType) =>
  JSON.stringify(
    outboxStreamRecord({
      eventId: ulid(),
      userId,
      eventType,
      description: `test ${eventType}`,
      occurredAt: new Date().toISOString(),
    }),
  );

const deliver = (...bodies: string[]) =>
  handler(sqsEvent('identity', bodies)) as Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;

/** A standing written straight to the table, with no outbox event: only this file's deliveries apply it. */
const setStanding = async (uid: string, standing: { status: 'verified' | 'suspended'; isActive: boolean }) => {
  const { createdAt } = await record(uid);
  // With the sort key's date, every index keyed by the status is written whole.
  await db()
    .user.patch({ userId: uid })
    .set({ ...standing, signInRequestedAt: new Date().toISOString() })
    .composite({ createdAt })
    .go();
};

let admin: TestAccount;

beforeAll(async () => {
  admin = await aUserWithRoles(['admin']);
});

const adminView = async (uid: string) => {
  const listed = await as(admin).get('/api/admin/users?limit=100&includeInactive=true&includeInvited=true');
  return (listed.body.users as AdminUserView[]).find((u) => u.id === uid);
};

describe('a standing change', () => {
  it('writes the standing and its user event together, and the worker disables sign-in after', async () => {
    const user = await aPhotographer();

    const suspended = await as(admin).patch(`/api/admin/users/${user.uid}/deactivate`);

    expect(suspended.status).toBe(200);
    expect(suspended.body.user).toMatchObject({ status: 'suspended', signInPending: 'disabling' });
    // The outbox event of the change reached the event log's queue, and was forwarded to the identity queue.
    const logged = await waitFor(
      () => userEventsSent('order-events', user.uid),
      (events) => events.length > 0,
    );
    expect(logged).toEqual([expect.objectContaining({ eventType: 'user_suspended', actorId: admin.uid })]);
    await waitFor(
      () => userEventsSent('identity', user.uid),
      (events) => events.length > 0,
    );
    expect(await waitFor(() => firebaseDisabled(user.uid), Boolean)).toBe(true);
    expect(
      (
        await waitFor(
          () => adminView(user.uid),
          (u) => u?.signInPending === null,
        )
      )?.signInPending,
    ).toBeNull();
    await expect(signIn(user.email, 'test-password')).rejects.toThrow(/USER_DISABLED/);
  });

  it('writes nothing, and sends no event, when the change is refused', async () => {
    const [target, invited] = await Promise.all([aPhotographer(), aPhotographer()]);
    const before = await record(admin.uid);

    const refusals = await Promise.all([
      as(admin).patch(`/api/admin/users/${admin.uid}/deactivate`),
      call(`/api/admin/users/${admin.uid}`, { method: 'DELETE', token: admin.token }),
      as(target).patch(`/api/admin/users/${invited.uid}/deactivate`),
      as(admin).patch('/api/admin/users/invited-01JNOSUCHPLACEHOLDER0000/deactivate'),
      as(admin).patch(`/api/admin/users/no-such-user-${randomUUID()}/reactivate`),
    ]);

    expect(refusals.map((r) => r.status)).toEqual([400, 400, 403, 409, 404]);
    // A standing change that went through, after them, is the only event of these accounts.
    await as(admin).patch(`/api/admin/users/${target.uid}/deactivate`);
    await waitFor(
      () => userEventsSent('order-events', target.uid),
      (events) => events.length > 0,
    );
    expect(await userEventsSent('order-events', admin.uid)).toEqual([]);
    expect(await userEventsSent('order-events', invited.uid)).toEqual([]);
    expect(await record(admin.uid)).toMatchObject({
      status: before.status,
      isActive: true,
      updatedAt: before.updatedAt,
    });
    expect(await record(invited.uid)).toMatchObject({ status: 'verified', isActive: true });
    expect((await record(invited.uid)).signInRequestedAt).toBeUndefined();
  });
});

describe('the identity worker', () => {
  it('applies the same event twice, or twice at once, harmlessly', async () => {
    const user = await aPhotographer();
    await setStanding(user.uid, { status: 'suspended', isActive: true });
    const event = syntheticRecord(user.uid, 'user_suspended');

    expect((await deliver(event)).batchItemFailures).toEqual([]);
    expect((await deliver(event)).batchItemFailures).toEqual([]);
    const together = await Promise.all([deliver(event), deliver(event)]);

    for (const result of together) expect(result.batchItemFailures).toEqual([]);
    expect(await firebaseDisabled(user.uid)).toBe(true);
    expect((await record(user.uid)).signInRequestedAt).toBeUndefined();
  });

  it('applies the standing the table holds, so an event older than it undoes nothing', async () => {
    const user = await aPhotographer();
    await setStanding(user.uid, { status: 'suspended', isActive: true });
    const suspension = syntheticRecord(user.uid, 'user_suspended');
    expect((await deliver(suspension)).batchItemFailures).toEqual([]);
    expect(await firebaseDisabled(user.uid)).toBe(true);

    // Reactivated; its event applied, then the suspension's event arrives again, late.
    await setStanding(user.uid, { status: 'verified', isActive: true });
    expect((await deliver(syntheticRecord(user.uid, 'user_reactivated'))).batchItemFailures).toEqual([]);
    expect((await deliver(suspension)).batchItemFailures).toEqual([]);

    expect(await firebaseDisabled(user.uid)).toBe(false);
    expect(typeof (await signIn(user.email, 'test-password'))).toBe('string');

    // Deleted, and the reactivation's event arrives late: sign-in stays off.
    await setStanding(user.uid, { status: 'verified', isActive: false });
    expect((await deliver(syntheticRecord(user.uid, 'user_reactivated'))).batchItemFailures).toEqual([]);
    expect(await firebaseDisabled(user.uid)).toBe(true);
  });

  it('reports a Firebase failure so SQS delivers the message again, and marks nothing applied', async () => {
    const user = await aPhotographer();
    await setStanding(user.uid, { status: 'suspended', isActive: true });
    const event = sqsEvent('identity', [syntheticRecord(user.uid, 'user_suspended')]);
    await authFaults('POST', { match: user.uid, times: 1 });

    const failed = await handler(event);

    expect(failed).toEqual({ batchItemFailures: [{ itemIdentifier: event.Records[0]!.messageId }] });
    expect(await refusedFor(user.uid)).toBe(1);
    expect((await record(user.uid)).signInRequestedAt).toEqual(expect.any(String));
    expect(await firebaseDisabled(user.uid)).toBe(false);

    expect(await handler(event)).toEqual({ batchItemFailures: [] });
    expect(await firebaseDisabled(user.uid)).toBe(true);
    expect((await record(user.uid)).signInRequestedAt).toBeUndefined();
    await authFaults('DELETE', { match: user.uid });
  });
});

describe('a Firebase outage', () => {
  it('leaves the API refusing a suspended user at once; the worker retries until Firebase is back', async () => {
    const user = await aPhotographer();
    await authFaults('POST', { match: user.uid });

    const suspended = await as(admin).patch(`/api/admin/users/${user.uid}/deactivate`);

    expect(suspended.status).toBe(200);
    const refused = await as(user).get('/api/auth/me');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(DEACTIVATED);
    // The stack's worker tried and Firebase failed; it still lets the user sign in, and the API
    // refuses the new token all the same.
    expect(
      await waitFor(
        () => refusedFor(user.uid),
        (n) => n >= 1,
      ),
    ).toBeGreaterThanOrEqual(1);
    const token = await signIn(user.email, 'test-password');
    expect((await as({ token }).get('/api/orders/my')).body.message).toBe(DEACTIVATED);
    expect((await adminView(user.uid))?.signInPending).toBe('disabling');

    // Each receive after the visibility timeout tries again; the message stays in its queue.
    for (let receive = 2; receive <= 3; receive++) {
      await waitFor(
        async () => {
          await sqsControl('ExpireVisibility', { QueueUrl: queueUrl('identity'), BodyContains: user.uid });
          return refusedFor(user.uid);
        },
        (n) => n >= receive,
      );
    }
    const { DeadLetterAlarms } = (await sqsControl('Status')) as { DeadLetterAlarms: { body: string }[] };
    expect(DeadLetterAlarms.filter((alarm) => alarm.body.includes(user.uid))).toEqual([]);

    await authFaults('DELETE', { match: user.uid });
    await sqsControl('ExpireVisibility', { QueueUrl: queueUrl('identity'), BodyContains: user.uid });

    expect(await waitFor(() => firebaseDisabled(user.uid), Boolean)).toBe(true);
    expect(
      (
        await waitFor(
          () => adminView(user.uid),
          (u) => u?.signInPending === null,
        )
      )?.signInPending,
    ).toBeNull();
    await expect(signIn(user.email, 'test-password')).rejects.toThrow(/USER_DISABLED/);
  }, 60_000);

  it('moves the message to the dead-letter queue after its receives; redriven once Firebase is back, it applies', async () => {
    const user = await aPhotographer();
    await authFaults('POST', { match: user.uid });

    expect((await call(`/api/admin/users/${user.uid}`, { method: 'DELETE', token: admin.token })).status).toBe(200);

    const alarms = await waitFor(
      async () => {
        await sqsControl('ExpireVisibility', { QueueUrl: queueUrl('identity'), BodyContains: user.uid });
        const { DeadLetterAlarms } = (await sqsControl('Status')) as {
          DeadLetterAlarms: { body: string; receiveCount: number; deadLetterQueue: string }[];
        };
        return DeadLetterAlarms.filter((alarm) => alarm.body.includes(user.uid));
      },
      (found) => found.length > 0,
      45_000,
    );
    expect(alarms).toEqual([
      expect.objectContaining({ deadLetterQueue: 'identity-dlq', receiveCount: identity.maxReceiveCount }),
    ]);
    expect(await refusedFor(user.uid)).toBe(identity.maxReceiveCount);
    expect((await as(user).get('/api/auth/me')).status).toBe(403);

    await authFaults('DELETE', { match: user.uid });
    expect(await firebaseDisabled(user.uid)).toBe(false);
    expect(await sqsControl('Redrive', { QueueUrl: queueUrl('identity'), BodyContains: user.uid })).toEqual({
      Moved: 1,
    });

    expect(await waitFor(() => firebaseDisabled(user.uid), Boolean)).toBe(true);
    // The worker clears the mark in its own write, just after Firebase has applied the standing.
    const cleared = await waitFor(
      async () => (await record(user.uid)).signInRequestedAt,
      (mark) => mark === undefined,
    );
    expect(cleared).toBeUndefined();
  }, 60_000);
});
