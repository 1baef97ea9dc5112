import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import {
  ADMIN_EDITORS_PAGE_SIZE,
  ADMIN_FEEDBACK_PAGE_SIZE,
  ADMIN_ORDERS_PAGE_SIZE,
  ADMIN_USERS_PAGE_SIZE,
  adminOrderSorts,
  assignmentFilters,
  EDITOR_PAYOUTS_PAGE_SIZE,
} from '@marketplace/events/admin';
import {
  AVAILABLE_ORDERS_DEFAULT_LIMIT,
  availableOrderFilters,
  availableOrderSorts,
  MY_ASSIGNMENTS_PAGE_SIZE,
} from '@marketplace/events/editor-orders';
import { feedbackStatuses, feedbackTypes } from '@marketplace/events/feedback';
import { BANK_PAYOUTS_PAGE_SIZE, EARNINGS_PAGE_SIZE } from '@marketplace/events/payouts';
import { turnaroundTiers } from '@marketplace/events/turnaround';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Person, scaleSeed } from '../local/scale-seed';
import { MY_FEEDBACK_PAGE_SIZE } from '../src/data/feedback';
import { FILTERED_READ_BUDGET } from '../src/data/list-pages';
import type { routes as routeTable } from '../src/routes';
import { forgedToken } from './support';

/**
 * The design's rule: no request reads more as the table grows. Every list and stats route is
 * called, for every filter and sort, at 1,000 orders and again at 20,000 (with the people,
 * feedback and payouts that come with them), and what each call read is taken from DynamoDB
 * itself: the read capacity it reports consumed (ReturnConsumedCapacity TOTAL on every call of
 * this process's client, which the handlers share).
 *
 * A route passes when its reads at 20,000 are within a page's worth of its reads at 1,000: one
 * page of the items it lists (its page size x what such a page costs to read, measured on the
 * table) for each partition it merges into the page (the open pool's partitions and the editor's
 * own, both assignment partitions, each feedback status...), plus half a read unit of rounding.
 * A filter that few records match (the admins, the editors, the suspended and invited users, a
 * feedback type) is a partition of its own and is held to a page like any list. A filter left to
 * drop rows (the photographer role, the verified status, hiding deleted and invited users; each
 * matches most rows) cannot know how far it must read to fill its page: it looks through at most
 * the lists' read budget (FILTERED_READ_BUDGET rows, data/list-pages.ts), which is then its
 * page's worth.
 * More than that means the route reads something that grows with the table: a COUNT, a filter
 * over a growing partition, a page found by reading the pages before it, a list read whole.
 *
 * What the routes list, and how it grows (services/local/scale-seed.ts): the open pool, every
 * assignment partition, the users and editors and feedback grow twentyfold; the measured
 * photographer's orders and feedback and the measured editor's history and payouts grow with
 * them; the editor's own work in hand does not (one person works on a few orders at a time). A
 * search's cost is the orders it matches (docs/decisions/0048-admin-order-list.md), so the search here is a word a
 * fixed set of orders carry; bench/scale.ts measures a common one.
 *
 * The table is this file's own, served by a gateway in this process over the route table, so
 * that every read of a request is counted and nothing else is.
 */
const SMALL = 1_000;
/** Earnings are booked from here on, a minute apart; the release is measured as of a time after the due ones. */
const RELEASE_SEED_START = Date.parse('2025-03-01T00:00:00.000Z');
const RELEASE_AS_OF = new Date('2060-01-01T00:00:00.000Z');
const RELEASE_PAGE_ROWS = 25;
const LARGE = 20_000;
/** A tenth as many photographers as orders and a 25th as many editors: pages of users and editors are full at 1,000. */
const shape = (orders: number) => ({ photographers: orders / 10, editors: orders / 25 });

/** GET routes that list or count nothing: what they read is one record, or not the table. */
const notLists: Record<string, string> = {
  'GET /api/orders/{id}/payment': "one order and its payment at Stripe (the fake's answer, not the table)",
  'GET /api/orders/{id}/download-completed': 'one order and its zip build (a queue message and S3)',
  'GET /api/orders/{id}/images/download-all': 'one order and its zip build (a queue message and S3)',
  'GET /api/orders/{id}/download-mls': 'one order, its MLS-ready copies and its zip build (a queue message and S3)',
  'GET /api/share/{token}': "one share link by its token's hash, and its order's photos (bounded by the order)",
  'GET /api/share/{token}/downloads/{kind}': "one share link and its order's zip build (a queue message and S3)",
  'GET /api/payment-methods': "the photographer's user record and their cards at Stripe (the fake's answer)",
  'GET /api/orders/{id}/receipts/{receiptId}': 'one order and one billing entry by its key, and a presigned link',
  'GET /api/unsubscribe': "a signed link's check and the one account it names",
  'GET /api/account/email-change/{token}': "one pending email change by its token's hash",
  'GET /api/orders/{id}/marks': "one order and its photos' marks (one item per photo, bounded by the order)",
};

type Caller = 'public' | 'photographer' | 'editor' | 'admin';

/** What a list's page holds, for its allowance: the item, read from the index it is listed by. */
type PageKind = 'pooled order' | 'order' | 'user' | 'editor' | 'feedback' | 'payout' | 'earning' | 'bank payout';

interface Probe {
  route: string;
  /** What is asked, as the failure message names it. */
  label: string;
  as: Caller;
  path: string;
  /** Reach page N through each page's nextCursor before measuring (by number where a route has no cursor). */
  page?: number;
  /**
   * The page it lists: `rows` of `of` from each partition merged; `filtered` when a filter may drop
   * most rows, so that a page may look through the read budget of list-pages.ts instead. Absent: no
   * list, rounding only.
   */
  lists?: { rows: number; of: PageKind; filtered?: boolean };
}

/** One DynamoDB call as the middleware saw it. */
interface Call {
  command: string;
  index: string;
  partition: string | undefined;
  count: boolean;
  units: number;
}

/** What a probe's allowance stands for, in words. */
const allowedFor = ({ lists }: Probe, partitions: number) =>
  !lists
    ? 'no list, rounding only'
    : lists.filtered
      ? `a filtered page looks through up to ${FILTERED_READ_BUDGET} ${lists.of}s`
      : `a page of ${lists.rows} ${lists.of}s from each of ${Math.max(1, partitions)} partition(s)`;

const query = (params: Record<string, string | number | undefined>) => {
  const defined = Object.entries(params).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
  return defined.length ? `?${new URLSearchParams(defined.map(([k, v]): [string, string] => [k, String(v)]))}` : '';
};

/** The photographer's order list is asked for its default page: 20. */
const MY_ORDERS_LIMIT = 20;
/** A deep page of available orders: the third of 10 (rows 21 to 30, there at 1,000 orders in every filter). */
const DEEP_AVAILABLE = { page: 3, limit: 10 };

const probesFor = (seed: ReturnType<typeof scaleSeed>, rareWord: string): Probe[] => {
  const { photographer, editor } = seed.people();
  const order = seed.photographerOrder('completed-after-revision')!;
  const probe = (route: string, label: string, as: Caller, path: string, more: Partial<Probe> = {}): Probe => ({
    route: `GET ${route}`,
    label,
    as,
    path,
    ...more,
  });
  const probes: Probe[] = [
    probe('/api/health', 'health', 'public', '/api/health'),
    probe('/api/auth/me', 'me', 'photographer', '/api/auth/me'),
    probe('/api/profile/editing-style', 'the saved style', 'photographer', '/api/profile/editing-style'),
    probe(
      '/api/auth/verify-invitation',
      'an invitation',
      'public',
      `/api/auth/verify-invitation${query(seed.invitation())}`,
    ),
    probe('/api/orders/job-types', 'job types', 'photographer', '/api/orders/job-types'),
    probe('/api/admin/job-types', 'job types', 'admin', '/api/admin/job-types'),
    probe('/api/orders/add-ons', 'add-ons', 'photographer', '/api/orders/add-ons'),
    probe('/api/admin/job-types/add-ons', 'add-ons', 'admin', '/api/admin/job-types/add-ons'),
    // The photographer's side: their orders (one in 23 of all), stats, one order, their feedback.
    ...[1, 2].map((page) =>
      probe('/api/orders/my', `page ${page}`, 'photographer', `/api/orders/my${query({ limit: MY_ORDERS_LIMIT })}`, {
        page,
        lists: { rows: MY_ORDERS_LIMIT, of: 'order' },
      }),
    ),
    probe('/api/stats/photographer', 'stats', 'photographer', '/api/stats/photographer'),
    // The account's own settings and history: its record, its latest data download, a page of its activity.
    probe('/api/account/notifications', 'switches', 'photographer', '/api/account/notifications'),
    probe('/api/account/data-export', 'latest download', 'photographer', '/api/account/data-export'),
    probe('/api/account/security-activity', 'first page', 'photographer', '/api/account/security-activity'),
    probe('/api/orders/{id}', 'a revised order', 'photographer', `/api/orders/${order}`),
    probe('/api/orders/{id}/events', 'a revised order', 'photographer', `/api/orders/${order}/events`),
    probe('/api/orders/{id}/images', 'a revised order', 'photographer', `/api/orders/${order}/images`),
    probe('/api/orders/{id}/add-ons', 'a revised order', 'photographer', `/api/orders/${order}/add-ons`),
    probe('/api/orders/{id}/editing-style', 'a revised order', 'photographer', `/api/orders/${order}/editing-style`),
    probe('/api/orders/{id}/sequence', 'a revised order', 'photographer', `/api/orders/${order}/sequence`),
    probe('/api/orders/{id}/share-links', 'a revised order', 'photographer', `/api/orders/${order}/share-links`),
    // Receipts and billing: the order's entries, the photographer's own partition a page at a time, a month of it.
    probe('/api/orders/{id}/receipts', 'a revised order', 'photographer', `/api/orders/${order}/receipts`),
    probe('/api/billing/history', 'first page', 'photographer', '/api/billing/history?limit=20', {
      lists: { rows: 20, of: 'order' },
    }),
    probe('/api/billing/statement', 'this month', 'photographer', '/api/billing/statement?month=2026-11&tz=UTC', {
      lists: { rows: 20, of: 'order' },
    }),
    probe('/api/feedback/my', "the photographer's", 'photographer', '/api/feedback/my', {
      lists: { rows: MY_FEEDBACK_PAGE_SIZE, of: 'feedback' },
    }),
    // The editor's side: the pools below, the work in hand, stats, their feedback.
    probe('/api/orders/my-assignments', 'work in hand', 'editor', '/api/orders/my-assignments', {
      lists: { rows: MY_ASSIGNMENTS_PAGE_SIZE, of: 'order' },
    }),
    probe('/api/stats/editor', 'stats', 'editor', '/api/stats/editor'),
    probe('/api/feedback/my', "the editor's", 'editor', '/api/feedback/my', {
      lists: { rows: MY_FEEDBACK_PAGE_SIZE, of: 'feedback' },
    }),
    // The admin's side: users, invitations, editors with their stats and payouts, feedback.
    probe('/api/admin/users', 'page 3', 'admin', '/api/admin/users', {
      page: 3,
      lists: { rows: ADMIN_USERS_PAGE_SIZE, of: 'user' },
    }),
    // The invited editors are the invited partition of the status index.
    probe('/api/admin/invited-users', 'invited editors', 'admin', '/api/admin/invited-users', {
      lists: { rows: ADMIN_USERS_PAGE_SIZE, of: 'editor' },
    }),
    probe(
      '/api/admin/check-email/{email}',
      "a photographer's email",
      'admin',
      `/api/admin/check-email/${encodeURIComponent(photographer.email)}`,
    ),
    ...[1, 2].map((page) =>
      probe('/api/admin/editors', `page ${page}`, 'admin', '/api/admin/editors', {
        page,
        lists: { rows: ADMIN_EDITORS_PAGE_SIZE, of: 'editor' },
      }),
    ),
    probe('/api/admin/editors/{id}/stats', 'the busiest editor', 'admin', `/api/admin/editors/${editor.userId}/stats`),
    probe(
      '/api/admin/editors/{id}/payouts',
      'the busiest editor',
      'admin',
      `/api/admin/editors/${editor.userId}/payouts`,
      { lists: { rows: EDITOR_PAYOUTS_PAGE_SIZE, of: 'payout' } },
    ),
    probe('/api/feedback/stats', 'stats', 'admin', '/api/feedback/stats'),
    // Editors paid through Stripe: the account (one record), earnings and bank payouts, a page each.
    probe('/api/payout-account', "the editor's", 'editor', '/api/payout-account'),
    probe('/api/earnings', "the busiest editor's", 'editor', '/api/earnings', {
      lists: { rows: EARNINGS_PAGE_SIZE, of: 'earning' },
    }),
    probe('/api/earnings', "the busiest editor's, page 2", 'editor', '/api/earnings', {
      page: 2,
      lists: { rows: EARNINGS_PAGE_SIZE, of: 'earning' },
    }),
    probe('/api/payouts', "the busiest editor's", 'editor', '/api/payouts', {
      lists: { rows: BANK_PAYOUTS_PAGE_SIZE, of: 'bank payout' },
    }),
    probe(
      '/api/admin/editors/{id}/earnings',
      'the busiest editor',
      'admin',
      `/api/admin/editors/${editor.userId}/earnings`,
      { lists: { rows: EARNINGS_PAGE_SIZE, of: 'earning' } },
    ),
    // The hours of the range, however many orders there are (the seed writes no events, so none here).
    probe('/api/admin/insights', '90 days in Berlin', 'admin', '/api/admin/insights?range=90&tz=Europe%2FBerlin'),
    probe(
      '/api/feedback/all',
      'all all, page 3',
      'admin',
      `/api/feedback/all${query({ status: 'all', type: 'all' })}`,
      {
        page: 3,
        lists: { rows: ADMIN_FEEDBACK_PAGE_SIZE, of: 'feedback' },
      },
    ),
  ];
  for (const filter of availableOrderFilters) {
    for (const sort of availableOrderSorts) {
      probes.push(
        probe(
          '/api/orders/available',
          `${filter} ${sort}`,
          'editor',
          `/api/orders/available${query({ filter, sort })}`,
          {
            lists: { rows: AVAILABLE_ORDERS_DEFAULT_LIMIT, of: 'pooled order' },
          },
        ),
        probe(
          '/api/orders/available',
          `${filter} ${sort}, page ${DEEP_AVAILABLE.page} of ${DEEP_AVAILABLE.limit}`,
          'editor',
          `/api/orders/available${query({ filter, sort, limit: DEEP_AVAILABLE.limit })}`,
          { page: DEEP_AVAILABLE.page, lists: { rows: DEEP_AVAILABLE.limit, of: 'pooled order' } },
        ),
      );
    }
  }
  // One turnaround tier by time left: its own lanes of the due-time index (a third of the pool each).
  for (const tier of turnaroundTiers) {
    for (const filter of availableOrderFilters) {
      probes.push(
        probe(
          '/api/orders/available',
          `${filter} due, ${tier} only`,
          'editor',
          `/api/orders/available${query({ filter, sort: 'due', tier })}`,
          { lists: { rows: AVAILABLE_ORDERS_DEFAULT_LIMIT, of: 'pooled order' } },
        ),
      );
    }
    probes.push(
      probe(
        '/api/orders/available',
        `all due, ${tier} only, page ${DEEP_AVAILABLE.page} of ${DEEP_AVAILABLE.limit}`,
        'editor',
        `/api/orders/available${query({ filter: 'all', sort: 'due', tier, limit: DEEP_AVAILABLE.limit })}`,
        { page: DEEP_AVAILABLE.page, lists: { rows: DEEP_AVAILABLE.limit, of: 'pooled order' } },
      ),
    );
  }
  for (const assignmentFilter of assignmentFilters) {
    for (const sortBy of adminOrderSorts) {
      const path = (searchTerm?: string) => `/api/orders/admin/all${query({ assignmentFilter, sortBy, searchTerm })}`;
      const lists = { rows: ADMIN_ORDERS_PAGE_SIZE, of: 'order' as const };
      probes.push(
        probe('/api/orders/admin/all', `${assignmentFilter} ${sortBy}`, 'admin', path(), { lists }),
        probe('/api/orders/admin/all', `${assignmentFilter} ${sortBy}, page 3`, 'admin', path(), { page: 3, lists }),
        probe('/api/orders/admin/all', `${assignmentFilter} ${sortBy}, search "${rareWord}"`, 'admin', path(rareWord), {
          lists,
        }),
      );
    }
  }
  const userFilters: Record<string, string>[] = [
    {},
    { includeInactive: 'true' },
    { includeInvited: 'true' },
    { includeInactive: 'true', includeInvited: 'true' },
    { status: 'suspended' },
    { status: 'invited', includeInvited: 'true' },
    { role: 'editor' },
    { role: 'admin' },
    { role: 'photographer', includeInactive: 'true' },
  ];
  for (const filters of userFilters) {
    const label =
      Object.entries(filters)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ') || 'first page';
    // Deleted accounts and invited editors are few: leaving them out drops little. The rare roles
    // and statuses have partitions of their own; the photographer role is a filter over everyone.
    const filtered = filters.role === 'photographer' || filters.status === 'verified';
    probes.push(
      probe('/api/admin/users', label, 'admin', `/api/admin/users${query(filters)}`, {
        lists: { rows: ADMIN_USERS_PAGE_SIZE, of: 'user', filtered },
      }),
    );
  }
  for (const status of ['all', ...feedbackStatuses]) {
    for (const type of ['all', ...feedbackTypes]) {
      probes.push(
        probe('/api/feedback/all', `${status} ${type}`, 'admin', `/api/feedback/all${query({ status, type })}`, {
          lists: { rows: ADMIN_FEEDBACK_PAGE_SIZE, of: 'feedback' },
        }),
      );
    }
  }
  return probes;
};

describe('every list and stats route reads the same at any size', () => {
  const sharedTable = process.env.TABLE_NAME;
  const table = `flat-reads-${ulid().toLowerCase()}`;
  let seed: ReturnType<typeof scaleSeed>;
  let rareWord: string;
  let checkCounters: typeof import('../src/ops/check-counters').checkCounters;
  let routes: typeof routeTable;
  let gateway: Server;
  let api: string;
  let dynamo: typeof import('../src/data/client').dynamo;
  let dueEarningsPage: typeof import('../src/data/earning-release').dueEarningsPage;
  let entities: () => ReturnType<typeof import('../src/data/entities').marketplace>['entities'];
  /** The calls of the request being measured; undefined between requests. */
  let calls: Call[] | undefined;
  const gatewayErrors: string[] = [];

  beforeAll(async () => {
    process.env.TABLE_NAME = table;
    // Fresh copies of the data modules (and the handlers the gateway loads) bound to this table.
    vi.resetModules();
    const { config, resetConfig } = await import('../src/config');
    resetConfig();
    ({ dynamo } = await import('../src/data/client'));
    dynamo().middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as {
          ReturnConsumedCapacity?: string;
          IndexName?: string;
          Select?: string;
          KeyConditionExpression?: string;
          ExpressionAttributeValues?: Record<string, unknown>;
        };
        input.ReturnConsumedCapacity ??= 'TOTAL';
        const result = await next(args);
        const consumed = (
          result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }
        ).ConsumedCapacity;
        const units = [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
        const key = /^\s*\(?\s*#\w+\s*=\s*(:\w+)/.exec(input.KeyConditionExpression ?? '')?.[1];
        calls?.push({
          command: context.commandName ?? 'unknown',
          index: input.IndexName ?? 'table',
          partition: key ? JSON.stringify(input.ExpressionAttributeValues?.[key]) : undefined,
          count: input.Select === 'COUNT',
          units,
        });
        return result;
      },
      { step: 'initialize', name: 'measureConsumedCapacity', override: true },
    );
    const { marketplace } = await import('../src/data/entities');
    entities = () => marketplace().entities;
    const seeding = await import('../local/scale-seed');
    rareWord = seeding.RARE_WORD;
    // Four batches in flight: DynamoDB Local serves every table from one SQLite thread, and more
    // would only queue ahead of the other test files' requests.
    seed = seeding.scaleSeed({ shape, detailEvery: 100, concurrency: 4 });
    ({ checkCounters } = await import('../src/ops/check-counters'));
    ({ dueEarningsPage } = await import('../src/data/earning-release'));
    ({ routes } = await import('../src/routes'));
    const { createGateway } = await import('../local/gateway');
    const { firebaseTokenVerifier } = await import('../local/token-verifier');
    gateway = createGateway({
      routes,
      loadHandler: async (route) =>
        (await import(path.join(import.meta.dirname, '../src/handlers', `${route.handler}.ts`))).handler,
      verifyToken: firebaseTokenVerifier({ projectId: config().FIREBASE_PROJECT_ID, emulator: true }),
      log: (line) => {
        if (line.includes(' threw: ')) gatewayErrors.push(line.slice(0, 2000));
      },
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    api = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => (gateway ? gateway.close(() => resolve()) : resolve()));
    await dynamo?.().send(new DeleteTableCommand({ TableName: table }));
    process.env.TABLE_NAME = sharedTable;
    vi.resetModules();
  });

  const tokens = new Map<Caller, string>();
  const tokenOf = (caller: Caller) => {
    if (caller === 'public') return undefined;
    const person: Person = seed.people()[caller];
    if (!tokens.has(caller)) tokens.set(caller, forgedToken({ sub: person.userId, email: person.email }));
    return tokens.get(caller);
  };

  const get = async (probe: Probe, pathAndQuery: string) => {
    const token = tokenOf(probe.as);
    const response = await fetch(
      `${api}${pathAndQuery}`,
      token ? { headers: { authorization: `Bearer ${token}` } } : {},
    );
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> | null, text };
  };

  interface Measured {
    units: number;
    /** How many partitions of the listed item's index the page was read from (COUNT queries aside). */
    partitions: number;
    problem?: string;
  }

  /** The physical indexes each kind of page is listed from. */
  const pageIndexes = (): Record<PageKind, Set<string>> => {
    const index = (pattern: { index?: string }) => pattern.index ?? 'table';
    const { order, user, feedback } = entities();
    return {
      'pooled order': new Set([
        index(order.schema.indexes.poolByDate),
        index(order.schema.indexes.poolByPrice),
        index(order.schema.indexes.poolByDue),
      ]),
      order: new Set([
        index(order.schema.indexes.byPhotographer),
        index(order.schema.indexes.byEditor),
        index(order.schema.indexes.byAssignment),
        index(order.schema.indexes.byAssignmentPhotos),
        index(order.schema.indexes.byAssignmentPhotographer),
        // A search reads the word items from the table's own partitions.
        'table',
      ]),
      // A filtered user list reads the partition of its rarest filter (admin-users.ts).
      user: new Set(
        (['all', 'editors', 'admins', 'byStatus'] as const).map((name) => index(user.schema.indexes[name])),
      ),
      editor: new Set([index(user.schema.indexes.editors), index(user.schema.indexes.byStatus)]),
      feedback: new Set([
        index(feedback.schema.indexes.byUser),
        index(feedback.schema.indexes.byStatus),
        index(feedback.schema.indexes.byTypeAndStatus),
      ]),
      payout: new Set(['table']),
      earning: new Set([index(entities().earning.schema.indexes.byEditor)]),
      'bank payout': new Set(['table']),
    };
  };

  /** A counter scope's partition key begins so: totals read whole (a fixed handful of names), never a page. */
  const counterPartitionPrefix = () => {
    const { ExpressionAttributeValues: values } = entities().counter.query.byScope({ scope: '' }).params() as {
      ExpressionAttributeValues: Record<string, unknown>;
    };
    return String(values[':pk']);
  };

  /** Calls the probe (after walking to its page, unmeasured) and adds up what its one request read. */
  const measure = async (probe: Probe, indexes: Record<PageKind, Set<string>>): Promise<Measured> => {
    let target = probe.path;
    const separator = probe.path.includes('?') ? '&' : '?';
    if (probe.page && probe.page > 1) {
      let cursor: string | undefined;
      for (let page = 1; page < probe.page; page++) {
        const previous = await get(
          probe,
          `${probe.path}${cursor ? `${separator}${query({ page, cursor }).slice(1)}` : ''}`,
        );
        if (previous.status !== 200)
          return { units: 0, partitions: 0, problem: `page ${page} answered ${previous.status}` };
        // A route without cursors is asked for the page by its number.
        if (!previous.body || !('nextCursor' in previous.body)) break;
        if (!previous.body.nextCursor) return { units: 0, partitions: 0, problem: `the list ended at page ${page}` };
        cursor = String(previous.body.nextCursor);
      }
      target = `${probe.path}${separator}${query({ page: probe.page, cursor }).slice(1)}`;
    }
    calls = [];
    const answer = await get(probe, target);
    const made = calls;
    calls = undefined;
    const listed = probe.lists ? indexes[probe.lists.of] : new Set<string>();
    const counters = counterPartitionPrefix();
    const partitions = new Set(
      made
        .filter((c) => c.command === 'QueryCommand' && !c.count && listed.has(c.index))
        .filter((c) => !c.partition?.includes(counters))
        .map((c) => `${c.index} ${c.partition}`),
    ).size;
    const units = made.reduce((sum, c) => sum + c.units, 0);
    const scans = made.filter((c) => c.command === 'ScanCommand').length;
    const problem =
      answer.status !== 200
        ? `answered ${answer.status}: ${answer.text.slice(0, 200)}`
        : scans
          ? `made ${scans} Scan(s)`
          : undefined;
    return { units, partitions, ...(problem ? { problem } : {}) };
  };

  const measureAll = async (probes: Probe[]) => {
    const indexes = pageIndexes();
    const results: Measured[] = [];
    for (const probe of probes) results.push(await measure(probe, indexes));
    return results;
  };

  /** What reading `rows` items of a kind costs here: one Query of that many from a partition that holds them. */
  const pageWorth = async (kind: PageKind, rows: number) => {
    const { order, user, feedback, payout, earning, bankPayout } = entities();
    const { editor } = seed.people();
    const read = {
      'pooled order': () => order.query.byAssignment({ assignment: 'assigned' }).go({ limit: rows }),
      order: () => order.query.byAssignment({ assignment: 'assigned' }).go({ limit: rows }),
      user: () => user.query.all({}).go({ limit: rows }),
      editor: () => user.query.editors({ isEditor: 'editor' }).go({ limit: rows }),
      // Reviewed reports carry notes and a reviewer: the largest.
      feedback: () => feedback.query.byStatus({ status: 'resolved' }).go({ limit: rows }),
      payout: () => payout.query.byEditor({ editorId: editor.userId }).go({ limit: rows }),
      earning: () => earning.query.byEditor({ editorId: editor.userId }).go({ limit: rows }),
      'bank payout': () => bankPayout.query.byEditor({ editorId: editor.userId }).go({ limit: rows }),
    }[kind];
    calls = [];
    const { data } = await read();
    const units = calls.reduce((sum, c) => sum + c.units, 0);
    calls = undefined;
    // A kind with fewer items than a page in the whole table: scale up what the ones there cost.
    return data.length >= rows || data.length === 0 ? units : (units * rows) / data.length;
  };

  /**
   * Earnings as completions leave them, up to `total` in all: one in seven the measured editor's,
   * one in twenty due for release (the queue's head), one in twenty waiting in the queue for a
   * time after the measured one, the rest transferred or paid out (out of the queue); a bank
   * payout for every ten of the measured editor's. Written straight into the table, in batches.
   */
  let earningCount = 0;
  const growEarnings = async (total: number) => {
    const { editor } = seed.people();
    const earnings: Record<string, unknown>[] = [];
    const bankPayouts: Record<string, unknown>[] = [];
    for (let i = earningCount; i < total; i++) {
      const bookedMs = RELEASE_SEED_START + i * 60_000;
      const mine = i % 7 === 0;
      const state = i % 20 === 0 || i % 20 === 1 ? 'held' : i % 2 === 0 ? 'transferred' : 'paid_out';
      const queued = i % 20 === 0 ? new Date(bookedMs).toISOString() : i % 20 === 1 ? '2099-01-01T00:00:00.000Z' : null;
      const orderId = ulid(bookedMs);
      const editorId = mine ? editor.userId : `seed-editor-${i % 40}`;
      earnings.push({
        orderId,
        editorId,
        amountCents: 150 + (i % 9) * 25,
        orderNumber: 500_000 + i,
        state,
        bookedAt: new Date(bookedMs).toISOString(),
        releaseAt: new Date(bookedMs).toISOString(),
        attempts: 0,
        // Out of the queue, an earning still carries the time its sort key is made of.
        ...(queued
          ? { releaseQueue: 'due', nextAttemptAt: queued }
          : { nextAttemptAt: new Date(bookedMs).toISOString() }),
        ...(state === 'transferred' || state === 'paid_out'
          ? { transferId: `tr_seed_${i}`, transferredAt: new Date(bookedMs).toISOString(), transferLedger: 'transfers' }
          : {}),
        ...(state === 'transferred' ? { inTransitOf: editorId } : {}),
        ...(state === 'paid_out' ? { payoutId: `po_seed_${Math.floor(i / 70)}` } : {}),
      });
      if (mine && i % 70 === 0) {
        bankPayouts.push({
          editorId,
          payoutId: `po_seed_${Math.floor(i / 70)}`,
          accountId: 'acct_seed',
          amountCents: 2_000,
          status: 'paid',
          createdAt: new Date(bookedMs).toISOString(),
          settledCents: 2_000,
          orders: Array.from({ length: 10 }, (_, k) => ({
            orderId: ulid(bookedMs + k),
            orderNumber: i + k,
            amountCents: 200,
          })),
        });
      }
    }
    earningCount = Math.max(earningCount, total);
    for (const [entity, records] of [
      [entities().earning, earnings],
      [entities().bankPayout, bankPayouts],
    ] as const) {
      for (let i = 0; i < records.length; i += 500) {
        let pending = records.slice(i, i + 500);
        while (pending.length) {
          pending = (
            await (
              entity as unknown as { put: (r: object[]) => { go: (o: object) => Promise<{ unprocessed: object[] }> } }
            )
              .put(pending)
              .go({ concurrency: 4 })
          ).unprocessed as Record<string, unknown>[];
        }
      }
    }
  };

  /** What one page of the release queue costs to read: the scheduled release's read of what is due. */
  const measureRelease = async () => {
    calls = [];
    const page = await dueEarningsPage({ asOf: RELEASE_AS_OF, cursor: null, limit: RELEASE_PAGE_ROWS });
    const units = calls.reduce((sum, c) => sum + c.units, 0);
    const scans = calls.filter((c) => c.command === 'ScanCommand').length;
    calls = undefined;
    return { units, rows: page.data.length, scans };
  };

  it(`at ${LARGE.toLocaleString('en')} orders reads within a page of what it reads at ${SMALL.toLocaleString('en')}`, async () => {
    const started = performance.now();
    const problems: string[] = [];
    const getRoutes = routes.filter((r) => r.method === 'GET').map((r) => `${r.method} ${r.path}`);

    await seed.grow(SMALL);
    // The seed writes its items straight into the table: its counters must be what the items imply.
    for (const d of await checkCounters()) {
      problems.push(
        `the seed's counter ${d.scope} ${d.name} is ${d.stored}, its items count ${d.counted} (${d.family})`,
      );
    }
    await growEarnings(SMALL);
    const probes = probesFor(seed, rareWord);
    const probed = new Set(probes.map((p) => p.route));
    for (const route of getRoutes) {
      if (!probed.has(route) && !notLists[route])
        problems.push(`${route}: not measured; add a probe for it (or say why it lists nothing)`);
    }
    const small = await measureAll(probes);
    const releaseSmall = await measureRelease();
    const seededSmall = performance.now();
    await seed.grow(LARGE);
    await growEarnings(LARGE);
    const seededLarge = performance.now();
    const large = await measureAll(probes);
    const releaseLarge = await measureRelease();
    const worth = new Map<string, number>();
    const worthOf = async ({ of, rows }: { of: PageKind; rows: number }) => {
      const key = `${of} ${rows}`;
      if (!worth.has(key)) worth.set(key, await pageWorth(of, rows));
      return worth.get(key)!;
    };
    const allowances: number[] = [];
    for (const [i, { lists }] of probes.entries()) {
      // A filtered page looks through at most the budget, all partitions together; any other page
      // reads a page from each partition it merges.
      allowances[i] = !lists
        ? 0.5
        : lists.filtered
          ? (await worthOf({ of: lists.of, rows: FILTERED_READ_BUDGET })) + 0.5
          : (await worthOf(lists)) * Math.max(1, large[i]!.partitions) + 0.5;
    }

    const rows: string[] = [];
    probes.forEach((probe, i) => {
      const before = small[i]!;
      const after = large[i]!;
      const name = `${probe.route} (${probe.label})`;
      const allowance = allowances[i]!;
      const growth = after.units - before.units;
      rows.push(
        `${name.padEnd(100)} ${String(before.units).padStart(8)} ${String(after.units).padStart(8)} ${allowance.toFixed(1).padStart(8)} ${String(after.partitions).padStart(10)}`,
      );
      for (const [size, measured] of [
        [SMALL, before],
        [LARGE, after],
      ] as const) {
        if (measured.problem) problems.push(`${name} at ${size.toLocaleString('en')} orders ${measured.problem}`);
      }
      if (growth > allowance) {
        problems.push(
          `${name}: ${before.units} read units at ${SMALL.toLocaleString('en')} orders, ${after.units} at ${LARGE.toLocaleString('en')} (allowed ${allowance.toFixed(1)} more: ${allowedFor(probe, after.partitions)})`,
        );
      }
    });
    console.log(
      [
        `Read units per request at ${SMALL} and ${LARGE} orders, and the growth allowed:`,
        `${'route (what is asked)'.padEnd(100)} ${'small'.padStart(8)} ${'large'.padStart(8)} ${'allowed'.padStart(8)} partitions`,
        ...rows,
        `Seeding ${SMALL}: ${((seededSmall - started) / 1000).toFixed(0)} s (with the first round), to ${LARGE}: ${((seededLarge - seededSmall) / 1000).toFixed(0)} s; in all ${((performance.now() - started) / 1000).toFixed(0)} s`,
      ].join('\n'),
    );
    // The release reads what is due, a page of the queue, however many earnings the table holds.
    const releaseName = `the release's read of due earnings (${SMALL.toLocaleString('en')} and ${LARGE.toLocaleString('en')} earnings)`;
    console.log(`${releaseName}: ${releaseSmall.units} and ${releaseLarge.units} read units`);
    for (const measured of [releaseSmall, releaseLarge]) {
      if (measured.rows !== RELEASE_PAGE_ROWS) problems.push(`${releaseName}: a page held ${measured.rows} rows`);
      if (measured.scans) problems.push(`${releaseName}: made ${measured.scans} Scan(s)`);
    }
    if (releaseLarge.units - releaseSmall.units > 0.5) {
      problems.push(`${releaseName}: ${releaseSmall.units} read units, then ${releaseLarge.units}`);
    }
    if (gatewayErrors.length) problems.push(...gatewayErrors);
    expect(
      problems,
      `${problems.length} requests read more as the table grows, or failed:\n${problems.join('\n')}`,
    ).toEqual([]);
  }, 1_200_000);
});
