import { updateShareLinkInput } from '@marketplace/events/delivery';
import { getOwnOrder } from '../../data/orders';
import { updateShareLinkExpiry } from '../../data/share-links';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { shareLinkParams } from './share-params';

/** A new expiry for one of the order's links, counted from now; a revoked link stays revoked (409). */
export const handler = http({ params: shareLinkParams, body: updateShareLinkInput }, async ({ params, body, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  return ok(await updateShareLinkExpiry({ order, linkId: params.linkId, expiresInDays: body.expiresInDays }));
});
