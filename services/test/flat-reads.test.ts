import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { type AdminUsersQuery, adminFeedbackQuery, adminUsersQuery } from '@marketplace/events/admin';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * No request reads more as the table grows: the admin's user, editor, invited and feedback lists
 * are asked for the same pages at 2,000 and at 6,000 users (and reports), in a table of their
 * own, and the read units DynamoDB Local reports for each request must not grow. Before the
 * counters, the users' total alone (a COUNT Query) read the whole partition: ~115 read units at
 * 2,000 users, ~345 at 6,000.
 */
const shared = process.env.TABLE_NAME;
const table = `flat-reads-${ulid().toLowerCase()}`;

type Modules = {
  marketplace: typeof import('../src/data/entities').marketplace;
  adminUsers: typeof import('../src/data/admin-users');
  adminEditors: typeof import('../src/data/admin-editors');
  feedback: typeof import('../src/data/feedback');
  totals: typeof import('../src/data/user-totals');
  dynamo: typeof import('../src/data/client').dynamo;
};
let m: Modules;
let units = 0;

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  vi.resetModules();
  const { dynamo } = await import('../src/data/client');
  const { ensureTable } = await import('../local/table-setup');
  m = {
    marketplace: (await import('../src/data/entities')).marketplace,
    adminUsers: await import('../src/data/admin-users'),
    adminEditors: await import('../src/data/admin-editors'),
    feedback: await import('../src/data/feedback'),
    totals: await import('../src/data/user-totals'),
    dynamo,
  };
  expect(m.marketplace().entities.user.query.all({}).params()).toMatchObject({ TableName: table });
  process.env.TABLE_NAME = shared;
  await ensureTable(dynamo(), table);
  // Every request of these modules asks DynamoDB for the capacity it consumed, and it is summed.
  dynamo().middlewareStack.add(
    (next) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity;
      units += consumed?.CapacityUnits ?? 0;
      return result;
    },
    { step: 'initialize', name: 'consumedCapacity' },
  );
});

afterAll(async () => {
  await m.dynamo().send(new DeleteTableCommand({ TableName: table }));
  vi.resetModules();
});

const readUnits = async (request: () => Promise<unknown>) => {
  units = 0;
  await request();
  return units;
};

const counts = new Map<string, number>();
let made = 0;

/** Users up to `size`: 1 in 100 an admin, 1 in 10 an editor, 1 in 50 invited, some suspended or deleted; as many reports. */
const growTo = async (size: number) => {
  const e = m.marketplace().entities;
  const users = Array.from({ length: size - made }, (_, k) => {
    const i = made + k;
    const invited = i % 50 === 0;
    return {
      userId: `${invited ? 'invited-' : 'user-'}${String(i).padStart(6, '0')}`,
      email: `user-${i}@example.test`,
      roles: [
        invited || i % 10 === 2 ? ('editor' as const) : i % 100 === 1 ? ('admin' as const) : ('photographer' as const),
      ],
      status: invited ? ('invited' as const) : i % 40 === 3 ? ('suspended' as const) : ('verified' as const),
      isActive: i % 33 !== 4,
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    };
  });
  const reports = users.map((u, k) => ({
    feedbackId: ulid(Date.UTC(2026, 0, 1) + (made + k) * 1000),
    userId: u.userId,
    userName: 'Reporter',
    userEmail: u.email,
    type: (made + k) % 20 === 0 ? ('problem' as const) : ('general' as const),
    status: (made + k) % 3 === 0 ? ('open' as const) : ('closed' as const),
    message: 'Something to say about the marketplace',
    createdAt: u.createdAt,
  }));
  made = size;
  const put = async (
    entity: { put: (items: never[]) => { go: (o: object) => Promise<{ unprocessed: unknown[] }> } },
    items: unknown[],
  ) => expect((await entity.put(items as never[]).go({ concurrency: 16 })).unprocessed).toHaveLength(0);
  await put(
    e.user as never,
    users.map((u) => ({ ...u, ...(u.roles.includes('editor') ? { isEditor: 'editor' } : {}) })),
  );
  await put(e.feedback as never, reports);
  // The counters as the writes keep them.
  for (const name of users.flatMap(m.totals.userTotalNames)) counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const r of reports) {
    for (const name of ['total', `type#${r.type}`, `status#${r.status}`, `status#${r.status}#type#${r.type}`]) {
      counts.set(`feedback\u0000${name}`, (counts.get(`feedback\u0000${name}`) ?? 0) + 1);
    }
  }
  await e.counter
    .put(
      [...counts].map(([key, value]) => {
        const [scope, name] = key.includes('\u0000') ? key.split('\u0000') : [m.totals.USER_TOTALS_SCOPE, key];
        return { scope: scope!, name: name!, value };
      }),
    )
    .go();
};

const userFilters: Record<string, string>[] = [
  { includeInvited: 'true' },
  { includeInvited: 'true', role: 'admin' },
  { includeInvited: 'true', status: 'suspended' },
  { includeInvited: 'true', includeInactive: 'true' },
];

/** The read units of a first page and of the page after it, for every list and filter measured. */
const measureEveryList = async () => {
  const measured: Record<string, number> = {};
  for (const filters of userFilters) {
    const query: AdminUsersQuery = adminUsersQuery.parse(filters);
    const first = await m.adminUsers.listUsers(query);
    measured[`users ${JSON.stringify(filters)}`] = await readUnits(() => m.adminUsers.listUsers(query));
    measured[`users ${JSON.stringify(filters)} next`] = await readUnits(() =>
      m.adminUsers.listUsers({ ...query, page: 2, cursor: first.nextCursor! }),
    );
  }
  measured.editors = await readUnits(() => m.adminEditors.listEditors({ page: 1, limit: 20 }));
  measured.invited = await readUnits(() => m.adminUsers.listInvitedUsers({ limit: 25 }));
  for (const type of ['all', 'problem']) {
    measured[`feedback ${type}`] = await readUnits(() =>
      m.feedback.listAllFeedback(adminFeedbackQuery.parse({ status: 'all', type })),
    );
  }
  return measured;
};

describe('what one request reads as the table grows', () => {
  it('stays the same for every admin list and filter from 2,000 to 6,000 users and reports', async () => {
    await growTo(2_000);
    const small = await measureEveryList();
    expect((await m.adminUsers.listUsers(adminUsersQuery.parse({}))).total).toBeGreaterThan(1_800);

    await growTo(6_000);
    const large = await measureEveryList();

    expect((await m.adminUsers.listUsers(adminUsersQuery.parse({}))).total).toBeGreaterThan(5_500);
    // The figures docs/decisions.md quotes, printed for the record.
    console.info(
      Object.entries(small)
        .map(([list, n]) => `${list}: ${n} -> ${large[list]} read units`)
        .join('\n'),
    );
    for (const [list, readAtSmall] of Object.entries(small)) {
      // Rounding of item sizes moves a figure by a unit or so; a read that grew with the table would triple.
      expect(large[list], `${list}: ${readAtSmall} then ${large[list]} read units`).toBeLessThanOrEqual(
        readAtSmall * 1.25 + 1,
      );
      expect(large[list], list).toBeLessThan(60);
    }
  }, 300_000);
});
