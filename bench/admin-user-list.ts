import { loadavg } from 'node:os';
import { adminEditorsQuery, adminUsersQuery } from '@marketplace/events/admin';
import { ulid } from 'ulid';
import { machine, startBenchStack } from './local-bench-stack';

/**
 * The admin's All Users and Editor Management lists over many accounts, read as the data layer
 * answers the routes: before, every user was read (the All Users tab asked for the accounts and
 * the invited list, each a Query of the whole users partition; Editor Management read every
 * editor with their rates and payouts); now one page is read, plus a COUNT Query for the total.
 *
 *   npx tsx bench/admin-user-list.ts [users] [runs]     (default: 3,000 users, 7 runs a figure)
 *
 * It starts the local stack on the test ports shifted by TEST_PORT_OFFSET (1200 when unset) and
 * seeds the users straight into the table; a fifth of them hold the editor role.
 */
const userCount = Number(process.argv[2] ?? 3_000);
const runs = Number(process.argv[3] ?? 7);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const time = async (label: string, read: () => Promise<unknown>) => {
  const took: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await read();
    took.push(performance.now() - started);
  }
  console.log(`${label.padEnd(58)} ${median(took).toFixed(0).padStart(6)} ms (median of ${runs})`);
};

const main = async () => {
  const { stack } = await startBenchStack('admin-users', 1200);
  try {
    const { marketplace } = await import('../services/src/data/entities');
    const { listUsers } = await import('../services/src/data/admin-users');
    const { listEditors } = await import('../services/src/data/admin-editors');
    const { listEditorRates } = await import('../services/src/data/editor-rates');
    const { pendingAndPaid } = await import('../services/src/data/payouts');
    const e = marketplace().entities;
    const start = Date.parse('2025-01-01T00:00:00.000Z');
    const users = Array.from({ length: userCount }, (_, i) => {
      const editor = i % 5 === 0;
      return {
        userId: ulid(start + i * 1000),
        email: `bench-user-${i}@example.test`,
        displayName: `Bench User ${i}`,
        roles: editor ? ['editor'] : ['photographer'],
        ...(editor ? { isEditor: 'editor' } : {}),
        createdAt: new Date(start + i * 1000).toISOString(),
      };
    });
    const { unprocessed } = await e.user.put(users).go({ concurrency: 16 });
    if (unprocessed.length) throw new Error(`${unprocessed.length} users were not written`);
    console.log(
      `${userCount} users (${userCount / 5} editors); ${machine()}; load average ${loadavg()[0]!.toFixed(1)}`,
    );

    await time('before: every user, twice (accounts + invited list)', () =>
      Promise.all([0, 1].map(() => e.user.query.all({}).go({ order: 'desc', pages: 'all' }))),
    );
    await time('now: All Users page 1 of 25, with the total', () => listUsers(adminUsersQuery.parse({})));
    await time('now: All Users page 1, role=editor, with the total', () =>
      listUsers(adminUsersQuery.parse({ role: 'editor' })),
    );
    await time('before: every editor, with their rates and payouts', async () => {
      const { data } = await e.user.query.editors({ isEditor: 'editor' }).go({ order: 'desc', pages: 'all' });
      await Promise.all(data.map((u) => Promise.all([listEditorRates(u.userId), pendingAndPaid(u.userId)])));
    });
    await time('now: Editor Management page 1 of 20, with the total', () => listEditors(adminEditorsQuery.parse({})));
  } finally {
    await stack.stop();
  }
};

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
