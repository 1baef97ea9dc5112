import { createHash, randomBytes } from 'node:crypto';
import {
  type CreatedShareLinkView,
  SHARE_LINK_DEFAULT_DAYS,
  SHARE_LINKS_PER_ORDER_MAX,
  type ShareLinkStatus,
  type ShareLinkView,
  shareLinkUnavailableMessage,
} from '@marketplace/events/delivery';
import { ulid } from 'ulid';
import { Conflict, NotFound } from '../http/errors';
import { isConditionFailure } from './conditional-write';
import { getRecord, models, query } from './direct-reads';
import { writers } from './direct-writes';
import { getOrder, type OrderRecord } from './orders';
import { commitAll, outboxWrite, TransactionCancelled } from './transactions';

/**
 * Share links: a completed order's gallery for the photographer's client, who has no account. The
 * token is 32 random bytes handed out once; the table keeps only its SHA-256, so a copy of the
 * table opens no gallery. Views and downloads are counted on the link's own item, one atomic add
 * each, under the same condition that decides whether the link still opens.
 */
export interface ShareLinkRecord {
  tokenHash: string;
  linkId: string;
  orderId: string;
  photographerId: string;
  expiresAt: string;
  revokedAt?: string;
  views: number;
  downloads: number;
  lastViewedAt?: string;
  createdAt: string;
  updatedAt: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Links an order keeps, live, expired and revoked: its list is one bounded Query. Ten live at
 * once, so a hundred in all leaves room for years of making new ones.
 */
export const SHARE_LINKS_PER_ORDER_TOTAL_MAX = 100;

/**
 * Attempts at a creation that lost a race to another one for the same order: each round one of
 * them wins, so this many lets every creation made at once reach a link or the limit's answer.
 */
const CREATE_ATTEMPTS = SHARE_LINKS_PER_ORDER_MAX + 1;

const shareLinks = () => writers().shareLink;

/** 32 random bytes (256 bits), base64url: 43 characters safe in a URL path. */
export const newShareToken = () => randomBytes(32).toString('base64url');

export const hashShareToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const isWellFormedShareToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/** Every link that does not open answers the same, so a caller learns nothing about which case it is. */
export class ShareLinkUnavailable extends NotFound {
  constructor() {
    super(shareLinkUnavailableMessage, 'LINK_UNAVAILABLE');
  }
}

export const shareLinkStatus = (link: ShareLinkRecord, now = Date.now()): ShareLinkStatus =>
  link.revokedAt ? 'revoked' : Date.parse(link.expiresAt) <= now ? 'expired' : 'active';

export const toShareLinkView = (link: ShareLinkRecord, now = Date.now()): ShareLinkView => ({
  id: link.linkId,
  status: shareLinkStatus(link, now),
  createdAt: link.createdAt,
  expiresAt: link.expiresAt,
  revokedAt: link.revokedAt ?? null,
  views: link.views,
  downloads: link.downloads,
  lastViewedAt: link.lastViewedAt ?? null,
});

const expiryIn = (days: number, now = Date.now()) => new Date(now + days * DAY_MS).toISOString();

/** The counter of links ever made for an order: creations are conditional on it, so two never both count the same list. */
const linksMadeCounter = (orderId: string) => ({ scope: `shareLinks#${orderId}`, name: 'made' });
/** The counter of expired links opened again: a revival and a creation each hold the other's count still. */
const linksRevivedCounter = (orderId: string) => ({ scope: `shareLinks#${orderId}`, name: 'revived' });

const linksRevived = async (orderId: string) => {
  const counter = await getRecord<{ value?: number }>(models.counter, linksRevivedCounter(orderId), {
    consistent: true,
  });
  return counter?.value ?? 0;
};

/**
 * What an admission is checked against: the revivals' count first, then the list. A revival that
 * lands between the two reads is in the list; one after both fails the condition on the count
 * read. Read side by side, the list could miss a revival the count already holds, and the last
 * place went twice. (The list comes from an index: in AWS, one a moment behind the table could
 * still miss a revival just made.)
 */
const admissionState = async (orderId: string) => {
  const revived = await linksRevived(orderId);
  const links = await listShareLinks(orderId);
  return { links, revived };
};

type Entities = Parameters<Parameters<typeof commitAll>[0]>[0];

/**
 * The writes that hold the count of live links an admission (a creation, or an expired link opened
 * again) was checked against: the links made still equal the list read (so neither a creation nor
 * an index not caught up came between), and the revivals still number what was read. `bump` says
 * which of the two this admission adds to.
 */
/** A counter's condition: it still holds `count` (absent counts as 0). */
const holding = <A>(value: A, count: number, eq: (a: A, v: number) => string, notExists: (a: A) => string) =>
  count === 0 ? `${notExists(value)} OR ${eq(value, 0)}` : eq(value, count);

const admissionWrites = (
  e: Entities,
  orderId: string,
  seen: { made: number; revived: number },
  bump: 'made' | 'revived',
) => {
  const made = linksMadeCounter(orderId);
  const revived = linksRevivedCounter(orderId);
  return [
    bump === 'made'
      ? e.counter
          .update(made)
          .add({ value: 1 })
          .where(({ value }, { eq, notExists }) => holding(value, seen.made, eq, notExists))
          .commit()
      : e.counter
          .check(made)
          .where(({ value }, { eq, notExists }) => holding(value, seen.made, eq, notExists))
          .commit(),
    bump === 'revived'
      ? e.counter
          .update(revived)
          .add({ value: 1 })
          .where(({ value }, { eq, notExists }) => holding(value, seen.revived, eq, notExists))
          .commit()
      : e.counter
          .check(revived)
          .where(({ value }, { eq, notExists }) => holding(value, seen.revived, eq, notExists))
          .commit(),
  ];
};

/** An order's links, newest first: one Query, bounded by the per-order total. */
export const listShareLinks = async (orderId: string) => {
  const { data } = await query<ShareLinkRecord>(models.shareLink, 'byOrder', { orderId }).go({
    order: 'desc',
    limit: SHARE_LINKS_PER_ORDER_TOTAL_MAX,
  });
  return data;
};

const getLinkOfOrder = async (orderId: string, linkId: string) => {
  const { data } = await query<ShareLinkRecord>(models.shareLink, 'byOrder', { orderId, linkId }).go({ limit: 1 });
  const link = data[0];
  if (!link) throw new NotFound('Share link not found');
  return link;
};

const assertCompleted = (order: OrderRecord) => {
  if (order.status !== 'completed') {
    throw new Conflict('A share link can be made once the order is completed', undefined, 'NOT_COMPLETED');
  }
};

const tooManyLive = () =>
  new Conflict(
    `This order already has ${SHARE_LINKS_PER_ORDER_MAX} active share links. Revoke one before making another.`,
    undefined,
    'TOO_MANY_SHARE_LINKS',
  );

/**
 * Makes a link for the photographer's completed order. The list the limits are checked against
 * is the one the write relies on: the order's count of links made must still equal the links
 * read, else another creation (or an index not caught up yet) came between, and it is read again.
 */
export const createShareLink = async ({
  order,
  userId,
  expiresInDays = SHARE_LINK_DEFAULT_DAYS,
}: {
  order: OrderRecord;
  userId: string;
  expiresInDays?: number;
}): Promise<CreatedShareLinkView> => {
  assertCompleted(order);
  const { orderId } = order;
  for (let attempt = 1; ; attempt += 1) {
    const { links, revived } = await admissionState(orderId);
    const now = Date.now();
    if (links.filter((link) => shareLinkStatus(link, now) === 'active').length >= SHARE_LINKS_PER_ORDER_MAX) {
      throw tooManyLive();
    }
    if (links.length >= SHARE_LINKS_PER_ORDER_TOTAL_MAX) {
      throw new Conflict(
        `This order has had ${SHARE_LINKS_PER_ORDER_TOTAL_MAX} share links, the most one order can have. Extend an existing link instead.`,
        undefined,
        'TOO_MANY_SHARE_LINKS',
      );
    }
    const token = newShareToken();
    const record = {
      tokenHash: hashShareToken(token),
      linkId: ulid(now),
      orderId,
      photographerId: order.photographerId,
      expiresAt: expiryIn(expiresInDays, now),
      views: 0,
      downloads: 0,
    };
    const seen = links.length;
    try {
      await commitAll((e) => [
        e.shareLink.create(record).commit(),
        ...admissionWrites(e, orderId, { made: seen, revived }, 'made'),
        outboxWrite(e, {
          orderId,
          eventType: 'share_link_created',
          description: `Share link created, valid for ${expiresInDays} day${expiresInDays === 1 ? '' : 's'}`,
          actorId: userId,
          metadata: { linkId: record.linkId, expiresAt: record.expiresAt },
        }),
      ]);
    } catch (error) {
      if (error instanceof TransactionCancelled && error.conditionFailed && attempt < CREATE_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
        continue;
      }
      if (error instanceof TransactionCancelled && error.conditionFailed) {
        throw new Conflict('Another share link was being made for this order at the same time. Please try again.');
      }
      throw error;
    }
    const created = { ...record, createdAt: new Date(now).toISOString(), updatedAt: new Date(now).toISOString() };
    return { ...toShareLinkView(created, now), token, path: `/share/${token}` };
  }
};

/**
 * An expired link opened again: admitted like a new link, under the limit of live links, in one
 * transaction that holds the counts it was checked against (see `admissionWrites`), so two
 * revivals, or a revival and a creation, never both take the last place.
 */
const reviveShareLink = async ({
  order,
  link,
  expiresInDays,
  now,
  revoked,
}: {
  order: OrderRecord;
  link: ShareLinkRecord;
  expiresInDays: number;
  now: number;
  revoked: () => Conflict;
}) => {
  const { orderId } = order;
  const { links, revived } = await admissionState(orderId);
  if (links.filter((l) => shareLinkStatus(l, now) === 'active').length >= SHARE_LINKS_PER_ORDER_MAX) {
    throw tooManyLive();
  }
  const expiresAt = expiryIn(expiresInDays, now);
  try {
    await commitAll((e) => [
      e.shareLink
        .patch({ tokenHash: link.tokenHash })
        .set({ expiresAt })
        .where(({ revokedAt }, { notExists }) => notExists(revokedAt))
        .commit(),
      ...admissionWrites(e, orderId, { made: links.length, revived }, 'revived'),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed) {
      const now2 = await getLinkOfOrder(orderId, link.linkId);
      if (now2.revokedAt) throw revoked();
      throw new Conflict(
        'Another share link of this order changed at the same time. Please try again.',
        undefined,
        'SHARE_LINKS_CHANGED',
      );
    }
    throw error;
  }
  return toShareLinkView({ ...link, expiresAt, updatedAt: new Date(now).toISOString() }, now);
};

/**
 * A new expiry, `expiresInDays` from now, for a link that is not revoked. An expired link opens
 * again, so it must fit under the limit of live links like a new one.
 */
export const updateShareLinkExpiry = async ({
  order,
  linkId,
  expiresInDays,
}: {
  order: OrderRecord;
  linkId: string;
  expiresInDays: number;
}) => {
  const link = await getLinkOfOrder(order.orderId, linkId);
  const revoked = () => new Conflict('This link has been revoked. Make a new one instead.', undefined, 'LINK_REVOKED');
  if (link.revokedAt) throw revoked();
  const now = Date.now();
  if (shareLinkStatus(link, now) === 'expired') return reviveShareLink({ order, link, expiresInDays, now, revoked });
  try {
    const { data } = await shareLinks()
      .patch({ tokenHash: link.tokenHash })
      .set({ expiresAt: expiryIn(expiresInDays, now) })
      .where(({ revokedAt }, { notExists }) => notExists(revokedAt))
      .go({ response: 'all_new' });
    return toShareLinkView(data as ShareLinkRecord);
  } catch (error) {
    if (isConditionFailure(error)) throw revoked();
    throw error;
  }
};

/** Revokes a link at once; revoking it again answers it as it is, with no second event. */
export const revokeShareLink = async ({
  order,
  linkId,
  userId,
}: {
  order: OrderRecord;
  linkId: string;
  userId: string;
}) => {
  const link = await getLinkOfOrder(order.orderId, linkId);
  if (link.revokedAt) return toShareLinkView(link);
  const revokedAt = new Date().toISOString();
  try {
    await commitAll((e) => [
      e.shareLink
        .patch({ tokenHash: link.tokenHash })
        .set({ revokedAt })
        .where(({ revokedAt: r }, { notExists }) => notExists(r))
        .commit(),
      outboxWrite(e, {
        orderId: order.orderId,
        eventType: 'share_link_revoked',
        description: 'Share link revoked',
        actorId: userId,
        metadata: { linkId },
      }),
    ]);
  } catch (error) {
    if (!(error instanceof TransactionCancelled && error.conditionFailed)) throw error;
    // Revoked by another request a moment ago: that revocation stands.
    return toShareLinkView(await getLinkOfOrder(order.orderId, linkId));
  }
  return toShareLinkView({ ...link, revokedAt, updatedAt: revokedAt });
};

/**
 * The link a token opens and its order, or ShareLinkUnavailable: a malformed or unknown token, a
 * revoked or expired link, an order that is no longer completed all answer alike.
 */
export const openShareLink = async (token: string) => {
  if (!isWellFormedShareToken(token)) throw new ShareLinkUnavailable();
  const link = await getRecord<ShareLinkRecord>(models.shareLink, { tokenHash: hashShareToken(token) });
  if (!link || shareLinkStatus(link) !== 'active') throw new ShareLinkUnavailable();
  const order = await getOrder(link.orderId);
  if (!order || order.status !== 'completed' || order.photographerId !== link.photographerId) {
    throw new ShareLinkUnavailable();
  }
  return { link, order };
};

/**
 * Counts a view or a download on the link, on condition that it still opens: a revocation or
 * expiry that lands between reading the link and counting refuses the answer too.
 */
export const countShareLinkUse = async (link: ShareLinkRecord, use: 'view' | 'download') => {
  const now = new Date().toISOString();
  const update = shareLinks().patch({ tokenHash: link.tokenHash });
  const counted = use === 'view' ? update.add({ views: 1 }).set({ lastViewedAt: now }) : update.add({ downloads: 1 });
  try {
    await counted
      .where(({ revokedAt, expiresAt }, { notExists, gt }) => `${notExists(revokedAt)} AND ${gt(expiresAt, now)}`)
      .go({ response: 'none' });
  } catch (error) {
    if (isConditionFailure(error)) throw new ShareLinkUnavailable();
    throw error;
  }
};
