import type { SecurityActivityKind, SecurityActivityPage, SecurityActivityView } from '@marketplace/events/security';
import * as z from '@marketplace/events/zod';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ulid } from 'ulid';
import { query as directQuery, models } from './direct-reads';
import { writers } from './direct-writes';
import type { marketplace } from './entities';
import { decodePageCursor, encodePageCursor } from './page-cursors';

/**
 * The user's own security activity ('Recent security activity' on /profile): when, what, and from
 * which browser. Each row is written in the same transaction as the action it records
 * (`securityActivityWrite`), or alone when the action is outside the table (`recordSecurityActivity`).
 * Rows live in the user's partition, newest first, and expire after a year.
 */
export const SECURITY_ACTIVITY_TTL_SECONDS = 366 * 24 * 60 * 60;
export const SECURITY_ACTIVITY_PAGE_SIZE = 20;

/** Where a request came from, as the activity list shows it. */
export interface RequestOrigin {
  browser: string;
  ip?: string;
}

export interface SecurityActivityInput extends RequestOrigin {
  userId: string;
  kind: SecurityActivityKind;
}

export interface SecurityActivityRecord {
  userId: string;
  activityId: string;
  kind: string;
  at: string;
  browser: string;
  ip?: string;
  expiresAt: number;
}

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\bCriOS\//, 'Chrome'],
  [/\bHeadlessChrome\//, 'Chrome'],
  [/\bChrom(?:e|ium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bcurl\//, 'curl'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export const UNKNOWN_BROWSER = 'Unknown browser';

/** 'Chrome on macOS' from a User-Agent header; 'Unknown browser' when it says too little. */
export const browserFromUserAgent = (userAgent: string | undefined | null): string => {
  const agent = (userAgent ?? '').slice(0, 512);
  const browser = BROWSERS.find(([pattern]) => pattern.test(agent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `A browser on ${system}`;
  return UNKNOWN_BROWSER;
};

const header = (event: APIGatewayProxyEventV2, name: string) => {
  const headers = event.headers ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? headers[key] : undefined;
};

/** The browser and address of a request (API Gateway's source IP, not a header a client could set). */
export const requestOrigin = (event: APIGatewayProxyEventV2): RequestOrigin => {
  const ip = event.requestContext?.http?.sourceIp;
  return { browser: browserFromUserAgent(header(event, 'user-agent')), ...(ip ? { ip: ip.slice(0, 64) } : {}) };
};

export const securityActivityRecord = (input: SecurityActivityInput, at = new Date()): SecurityActivityRecord => ({
  userId: input.userId,
  activityId: ulid(at.getTime()),
  kind: input.kind,
  at: at.toISOString(),
  browser: input.browser.slice(0, 100) || UNKNOWN_BROWSER,
  ...(input.ip ? { ip: input.ip } : {}),
  expiresAt: Math.floor(at.getTime() / 1000) + SECURITY_ACTIVITY_TTL_SECONDS,
});

type WriteBuilder = Parameters<ReturnType<typeof marketplace>['transaction']['write']>[0];
type Entities = Parameters<WriteBuilder>[0];

/** The put of one activity row, to commit in the same transaction as the action it records. */
export const securityActivityWrite = (entities: Entities, input: SecurityActivityInput, at = new Date()) =>
  entities.securityActivity.create(securityActivityRecord(input, at)).commit();

/** Writes one activity row on its own (an action whose effect is outside the table). */
export const recordSecurityActivity = async (input: SecurityActivityInput, at = new Date()) => {
  const record = securityActivityRecord(input, at);
  await writers().securityActivity.create(record).go();
  return record;
};

const toView = (row: SecurityActivityRecord): SecurityActivityView => ({
  id: row.activityId,
  kind: row.kind as SecurityActivityKind,
  at: row.at,
  browser: row.browser,
  ip: row.ip ?? null,
});

const activityCursor = z.object({
  at: z.string().check(z.minLength(1), z.maxLength(40)),
  activityId: z.string().check(z.minLength(1), z.maxLength(40)),
});

/**
 * One page of the user's own activity, newest first; `cursor` is the previous page's nextCursor
 * (the last row's sort key; the next page is a key condition before it, in this user's partition only).
 */
export const listSecurityActivity = async (
  userId: string,
  cursor?: string | null,
  limit = SECURITY_ACTIVITY_PAGE_SIZE,
): Promise<SecurityActivityPage> => {
  const after = cursor ? decodePageCursor(cursor, activityCursor) : undefined;
  const partition = directQuery<SecurityActivityRecord>(models.securityActivity, 'byUser', { userId });
  const query = after ? partition.lt(after) : partition;
  // One more than a page tells whether another page follows.
  const { data } = await query.go({ order: 'desc', limit: limit + 1 });
  const rows = (data as SecurityActivityRecord[]).slice(0, limit);
  const last = rows.at(-1);
  const more = data.length > limit && last;
  return {
    activity: rows.map(toView),
    nextCursor: more ? encodePageCursor({ at: last.at, activityId: last.activityId }) : null,
  };
};
