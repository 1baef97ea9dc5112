import { sharePageHeaders } from '@marketplace/events/delivery';
import { countShareLinkUse, openShareLink } from '../../data/share-links';
import { publicHttp } from '../../http/http';
import { ok } from '../../http/responses';
import { shareTokenParams } from './share-params';
import { sharedGalleryView } from './shared-gallery-view';

/** The gallery a share link opens, for anyone holding the link; each answer counts a view. */
export const handler = publicHttp(
  { params: shareTokenParams },
  async ({ params }) => {
    const { link, order } = await openShareLink(params.token);
    await countShareLinkUse(link, 'view');
    return ok(await sharedGalleryView(order, link.expiresAt));
  },
  { headers: sharePageHeaders },
);
