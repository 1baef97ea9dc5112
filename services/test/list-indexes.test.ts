import { DeleteTableCommand, ScanCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { adminFeedbackQuery, adminUsersQuery, invitedUsersQuery } from '@marketplace/events/admin';
import { feedbackTypes } from '@marketplace/events/feedback';
import type { Role } from '@marketplace/events/roles';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * The admins, status and feedback-type indexes, in a table of their own (other files add users
 * and feedback to the shared one as this runs): each filter lists exactly its records; role
 * writes keep the admins index in step; and records written before the indexes existed (their
 * keys removed here) are missing from the filtered lists until the backfill gives them their keys.
 */
const shared = process.env.TABLE_NAME;
const table = `list-indexes-${ulid().toLowerCase()}`;

type Modules = {
  dynamo: typeof import('../src/data/client').dynamo;
  marketplace: typeof import('../src/data/entities').marketplace;
  listUsers: typeof import('../src/data/admin-users').listUsers;
  listInvitedUsers: typeof import('../src/data/admin-users').listInvitedUsers;
  listAllFeedback: typeof import('../src/data/feedback').listAllFeedback;
  setRoles: typeof import('../src/data/users').setRoles;
  roleIndexAttributes: typeof import('../src/data/users').roleIndexAttributes;
  backfillListIndexes: typeof import('../src/ops/list-indexes').backfillListIndexes;
};
let m: Modules;

const start = Date.now() - 3_600_000;
const at = (i: number) => new Date(start + i * 1000).toISOString();

const users: { userId: string; roles: Role[]; status: 'verified' | 'invited' | 'suspended' }[] = [
  ...Array.from({ length: 30 }, (_, i) => ({
    userId: `photographer-${i}`,
    roles: ['photographer'] as Role[],
    status: 'verified' as const,
  })),
  ...Array.from({ length: 3 }, (_, i) => ({
    userId: `admin-${i}`,
    roles: ['admin'] as Role[],
    status: 'verified' as const,
  })),
  { userId: 'admin-editor', roles: ['admin', 'editor'], status: 'verified' },
  ...Array.from({ length: 4 }, (_, i) => ({
    userId: `suspended-${i}`,
    roles: ['photographer'] as Role[],
    status: 'suspended' as const,
  })),
  ...Array.from({ length: 2 }, (_, i) => ({
    userId: `invited-${ulid(start + i)}`,
    roles: ['editor'] as Role[],
    status: 'invited' as const,
  })),
];
const feedback = Array.from({ length: 40 }, (_, i) => ({
  feedbackId: ulid(start + i),
  type: feedbackTypes[i % 7 === 0 ? 0 : 1 + (i % 2)]!,
  status: (['open', 'in_progress', 'resolved', 'closed'] as const)[i % 4]!,
}));

const adminIds = () => users.filter((u) => u.roles.includes('admin')).map((u) => u.userId);
const withStatus = (status: string) => users.filter((u) => u.status === status).map((u) => u.userId);
const newestFirst = (ids: string[]) => ids.toReversed();

const listedUsers = async (filters: Record<string, string>) =>
  (await m.listUsers(adminUsersQuery.parse({ limit: 100, includeInvited: 'true', ...filters }))).users.map((u) => u.id);
const listedInvited = async () =>
  (await m.listInvitedUsers(invitedUsersQuery.parse({ limit: 100 }))).users.map((u) => u.id);
const listedFeedback = async (type: string, status = 'all') =>
  (await m.listAllFeedback(adminFeedbackQuery.parse({ type, status, limit: 100 }))).feedback.map((f) => f.id);
const feedbackOfType = (type: string, status = 'all') =>
  newestFirst(
    feedback.filter((f) => f.type === type && (status === 'all' || f.status === status)).map((f) => f.feedbackId),
  );

/** Removes the keys of the indexes added after records existed, as a record from before them has none. */
const stripNewIndexKeys = async () => {
  const { Items = [] } = await m.dynamo().send(new ScanCommand({ TableName: table }));
  for (const item of Items) {
    const entity = item.__edb_e__?.S;
    const fields =
      entity === 'user' ? ['gsi4pk', 'gsi4sk', 'gsi5pk', 'gsi5sk'] : entity === 'feedback' ? ['gsi3pk', 'gsi3sk'] : [];
    if (!fields.length) continue;
    await m.dynamo().send(
      new UpdateItemCommand({
        TableName: table,
        Key: { pk: item.pk!, sk: item.sk! },
        UpdateExpression: `REMOVE ${fields.join(', ')}`,
      }),
    );
  }
};

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  vi.resetModules();
  const { dynamo } = await import('../src/data/client');
  const { marketplace } = await import('../src/data/entities');
  const { listUsers, listInvitedUsers } = await import('../src/data/admin-users');
  const { listAllFeedback } = await import('../src/data/feedback');
  const { setRoles, roleIndexAttributes } = await import('../src/data/users');
  const { backfillListIndexes } = await import('../src/ops/list-indexes');
  m = {
    dynamo,
    marketplace,
    listUsers,
    listInvitedUsers,
    listAllFeedback,
    setRoles,
    roleIndexAttributes,
    backfillListIndexes,
  };
  expect(marketplace().entities.user.query.all({}).params()).toMatchObject({ TableName: table });
  process.env.TABLE_NAME = shared;
  const { ensureTable } = await import('../local/table-setup');
  await ensureTable(dynamo(), table, { stream: false });
  const e = marketplace().entities;
  const written = await e.user
    .put(
      users.map((u, i) => ({
        ...u,
        email: `${u.userId.toLowerCase()}@example.test`,
        isActive: true,
        createdAt: at(i),
        ...roleIndexAttributes(u.roles),
      })),
    )
    .go();
  expect(written.unprocessed).toHaveLength(0);
  const reports = await e.feedback
    .put(
      feedback.map((f, i) => ({
        ...f,
        userId: 'reporter',
        userName: 'Reporter',
        userEmail: 'reporter@example.test',
        message: `Report ${i}`,
        createdAt: at(i),
      })),
    )
    .go();
  expect(reports.unprocessed).toHaveLength(0);
}, 60_000);

afterAll(async () => {
  await m.dynamo().send(new DeleteTableCommand({ TableName: table }));
  vi.resetModules();
});

describe('the admin lists filtered by an index of their own', () => {
  it('lists exactly the admins, each status, the invited editors and each feedback type', async () => {
    expect(await listedUsers({ role: 'admin' })).toEqual(newestFirst(adminIds()));
    expect(await listedUsers({ status: 'suspended' })).toEqual(newestFirst(withStatus('suspended')));
    expect(await listedUsers({ status: 'invited' })).toEqual(newestFirst(withStatus('invited')));
    expect(await listedInvited()).toEqual(newestFirst(withStatus('invited')));
    expect(await listedUsers({ role: 'admin', status: 'suspended' })).toEqual([]);
    for (const type of feedbackTypes) {
      expect(await listedFeedback(type), type).toEqual(feedbackOfType(type));
      expect(await listedFeedback(type, 'resolved'), type).toEqual(feedbackOfType(type, 'resolved'));
    }
  });

  it('keeps the admins index in step with every role write', async () => {
    await m.setRoles('photographer-3', ['photographer', 'admin']);
    expect(await listedUsers({ role: 'admin' })).toContain('photographer-3');
    await m.setRoles('photographer-3', ['photographer']);
    expect(await listedUsers({ role: 'admin' })).not.toContain('photographer-3');
    expect(await listedUsers({ role: 'admin' })).toEqual(newestFirst(adminIds()));
  });

  it('gives records from before the indexes their keys, once per table', async () => {
    await stripNewIndexKeys();
    expect(await listedUsers({ role: 'admin' })).toEqual([]);
    expect(await listedUsers({ status: 'suspended' })).toEqual([]);
    expect(await listedInvited()).toEqual([]);
    expect(await listedFeedback('problem')).toEqual([]);

    expect(await m.backfillListIndexes()).toEqual({ users: users.length, feedback: feedback.length });

    expect(await listedUsers({ role: 'admin' })).toEqual(newestFirst(adminIds()));
    expect(await listedUsers({ status: 'suspended' })).toEqual(newestFirst(withStatus('suspended')));
    expect(await listedInvited()).toEqual(newestFirst(withStatus('invited')));
    for (const type of feedbackTypes) expect(await listedFeedback(type), type).toEqual(feedbackOfType(type));
    // The unfiltered lists never lost anyone, and the table is marked: a second start reads nothing.
    expect(await listedUsers({})).toHaveLength(users.length);
    expect(await m.backfillListIndexes()).toBeNull();
  });
});
