import { getOwnOrder } from '../../data/orders';
import { revokeShareLink } from '../../data/share-links';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { shareLinkParams } from './share-params';

/** Revokes one of the order's links: from this answer on, it opens nothing. */
export const handler = http({ params: shareLinkParams }, async ({ params, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  return ok(await revokeShareLink({ order, linkId: params.linkId, userId: user.userId }));
});
