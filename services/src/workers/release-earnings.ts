import type { ScheduledEvent } from 'aws-lambda';
import { logger } from '../adapters/logger';
import { releaseDueEarnings } from '../data/earning-release';

/**
 * The scheduled release (every 15 minutes, services/src/workers.ts): every earning whose revision
 * window has closed is transferred to its editor's Stripe account. A run that overlaps another,
 * or runs again, makes no second transfer: each earning is leased, and its transfer is keyed by it.
 */
export const handler = async (event?: Partial<ScheduledEvent>) => {
  const asOf = event?.time ? new Date(Math.max(Date.parse(event.time), Date.now())) : new Date();
  const summary = await releaseDueEarnings({ asOf });
  logger.info('earnings released', { ...summary });
  return summary;
};
