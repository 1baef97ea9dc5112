import { mlsZipFilename, sharePageHeaders } from '@marketplace/events/delivery';
import { editedZipFilename } from '@marketplace/events/orders';
import { countShareLinkUse, openShareLink } from '../../data/share-links';
import { publicHttp } from '../../http/http';
import { json, ok } from '../../http/responses';
import { zipHandOver } from '../downloads/order-zip';
import { sharedDownloadParams } from './share-params';

/**
 * One of the shared gallery's zips: the full-resolution files or the MLS-ready copies. A link
 * when the zip is ready (counted as a download), else 202 with the build's progress.
 */
export const handler = publicHttp(
  { params: sharedDownloadParams },
  async ({ params }) => {
    const { link, order } = await openShareLink(params.token);
    const view =
      params.kind === 'full'
        ? await zipHandOver({ order, kind: 'edited', filename: editedZipFilename(order) })
        : await zipHandOver({ order, kind: 'mls', filename: mlsZipFilename(order) });
    if (view.status !== 'ready') return json(202, view);
    await countShareLinkUse(link, 'download');
    return ok(view);
  },
  { headers: sharePageHeaders },
);
