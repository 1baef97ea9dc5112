import { saveMarksInput } from '@marketplace/events/marks';
import { saveImageMarks } from '../../data/marks';
import { getOwnOrder } from '../../data/orders';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

/** The photographer replaces the marks on one original of their order; answers all the order's marks. */
export const handler = http({ params: orderParams, body: saveMarksInput }, async ({ params, body, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  return ok(await saveImageMarks({ order, photographerId: user.userId, key: body.key, marks: body.marks }));
});
