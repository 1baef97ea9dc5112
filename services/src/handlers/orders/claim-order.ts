import { claimOrderForEditor } from '../../data/editor-orders';
import { toDetailView } from '../../data/orders';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

/** One of any number of simultaneous claims wins; the others get 409 'This order has already been claimed'. */
export const handler = http({ params: orderParams }, async ({ params, user }) =>
  ok(toDetailView(await claimOrderForEditor(params.id, user))),
);
