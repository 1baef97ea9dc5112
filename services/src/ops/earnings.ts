import { RELEASE_BATCH, type ReleaseSummary, releaseDueEarnings } from '../data/earning-release';

/**
 * `npm run ops -- release-earnings [--as-of <time>]`: the scheduled release, run at once, as if at
 * that time (a week ahead shows what the schedule will send then). Runs until the queue holds
 * nothing more that is due, a batch at a time.
 */
export const releaseEarningsNow = async (asOf: Date) => {
  const total: ReleaseSummary = { transferred: 0, refused: 0, held: 0, 'paid-by-hand': 0, skipped: 0 };
  for (;;) {
    const run = await releaseDueEarnings({ asOf });
    for (const key of Object.keys(total) as (keyof ReleaseSummary)[]) total[key] += run[key];
    // A full batch that moved something may have left more behind it; anything else is the end.
    const handled = run.transferred + run.held + run['paid-by-hand'] + run.refused;
    if (handled + run.skipped < RELEASE_BATCH || handled === 0) return total;
  }
};

export const formatRelease = (asOf: Date, summary: ReleaseSummary) =>
  [
    `Release as of ${asOf.toISOString()}:`,
    `  ${summary.transferred} transferred to editors' Stripe accounts`,
    `  ${summary['paid-by-hand']} already paid by hand (nothing to transfer)`,
    `  ${summary.held} held: their editor has no payout account, or it cannot take transfers yet`,
    `  ${summary.refused} refused by Stripe: due again later (npm run ops -- check-transfers; docs/operations.md)`,
    ...(summary.skipped ? [`  ${summary.skipped} left to a release already at work on them`] : []),
  ].join('\n');
