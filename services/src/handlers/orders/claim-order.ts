import { recordMetrics } from '../../adapters/metrics';
import { claimOrderForEditor } from '../../data/editor-orders';
import { toDetailView } from '../../data/orders';
import { Conflict } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

/** A lost claim is counted: many of them mean editors keep reaching for the same few orders. */
const countConflict = (error: unknown): never => {
  if (error instanceof Conflict) recordMetrics({ ClaimConflicts: 1 });
  throw error;
};

/** One of any number of simultaneous claims wins; the others get 409 'This order has already been claimed'. */
export const handler = http({ params: orderParams }, async ({ params, user }) =>
  ok(toDetailView(await claimOrderForEditor(params.id, user).catch(countConflict))),
);
