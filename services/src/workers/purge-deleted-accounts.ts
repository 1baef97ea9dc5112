import { DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { ScheduledEvent } from 'aws-lambda';
import { logger } from '../adapters/logger';
import { photosBucket, s3 } from '../adapters/s3';
import { removeCard, savedCards } from '../adapters/stripe-cards';
import { type PurgeServices, purgeDueAccounts } from '../data/account-deletion';

/** Every object under a prefix of the photos bucket, removed a listed page at a time. */
export const deletePrefix = async (prefix: string) => {
  const client = s3();
  let removed = 0;
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: photosBucket(), Prefix: prefix, ContinuationToken: token }),
    );
    const keys = (page.Contents ?? []).map((object) => ({ Key: object.Key! }));
    if (keys.length) {
      await client.send(new DeleteObjectsCommand({ Bucket: photosBucket(), Delete: { Objects: keys, Quiet: true } }));
      removed += keys.length;
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return removed;
};

/** These objects of the photos bucket removed, a thousand a request. */
export const deleteKeys = async (keys: readonly string[]) => {
  for (let start = 0; start < keys.length; start += 1000) {
    const objects = keys.slice(start, start + 1000).map((Key) => ({ Key }));
    await s3().send(new DeleteObjectsCommand({ Bucket: photosBucket(), Delete: { Objects: objects, Quiet: true } }));
  }
};

/** The customer's saved cards detached at Stripe: nothing can be charged to a deleted account again. */
export const detachCards = async (customerId: string) => {
  const cards = await savedCards(customerId);
  for (const card of cards) await removeCard(card.id);
  return cards.length;
};

export const purgeServices: PurgeServices = { deletePrefix, deleteKeys, detachCards };

/**
 * The scheduled purge (services/src/workers.ts; `npm run ops -- purge-deleted-accounts`): every
 * account its owner deleted more than the retention ago (events/account-data.ts
 * ACCOUNT_PURGE_AFTER_DAYS) loses its personal fields, pictures, data downloads, saved cards and
 * email guard (data/account-deletion.ts). A run takes a batch; the next run takes the rest.
 */
export const handler = async (event?: Partial<ScheduledEvent>) => {
  const asOf = event?.time ? new Date(Math.max(Date.parse(event.time), Date.now())) : new Date();
  const summary = await purgeDueAccounts(purgeServices, asOf);
  logger.info('deleted accounts purged', { ...summary });
  return summary;
};
