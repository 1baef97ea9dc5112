import { saveSequenceInput } from '@marketplace/events/delivery';
import { saveSequence } from '../../data/delivery';
import { getOwnOrder } from '../../data/orders';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

/** The photographer saves the listing order (the first photo is the cover): one conditional write. */
export const handler = http({ params: orderParams, body: saveSequenceInput }, async ({ params, body, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  const version = await saveSequence({
    order,
    userId: user.userId,
    keys: body.keys,
    version: body.version,
    replace: body.replace ?? false,
  });
  return ok({ version });
});
