import { PURGE_BATCH, purgeDueAccounts } from '../data/account-deletion';
import { purgeServices } from '../workers/purge-deleted-accounts';

/**
 * `npm run ops -- purge-deleted-accounts [--as-of <time>]`: the scheduled purge, run at once (as if at
 * that time: a month ahead shows what the schedule will remove then), batch after batch until
 * nothing more is due. Answers what it did, in words.
 */
export const purgeDeletedAccountsNow = async (asOf: Date) => {
  const total = { purged: 0, reactivated: 0, 'no-user': 0, failed: 0 };
  for (;;) {
    const run = await purgeDueAccounts(purgeServices, asOf);
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += run[key];
    const handled = run.purged + run.reactivated + run['no-user'];
    if (handled + run.failed < PURGE_BATCH || handled === 0) break;
  }
  return [
    `Purge of deleted accounts as of ${asOf.toISOString()}:`,
    `  ${total.purged} purged (personal fields, pictures, data downloads, saved cards, email guard)`,
    `  ${total.reactivated} reactivated meanwhile (left as they are)`,
    ...(total['no-user'] ? [`  ${total['no-user']} with no account record any more`] : []),
    ...(total.failed ? [`  ${total.failed} failed: they stay due and are tried again (see the logs)`] : []),
  ].join('\n');
};
