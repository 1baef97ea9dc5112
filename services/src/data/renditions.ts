import type { MlsLongEdge } from '@marketplace/events/delivery';
import { marketplace } from './entities';

/**
 * The MLS-ready copies of an order's edited photos, one record per long edge and edited file:
 * 'ready' with the copy's key, or 'skipped' with the reason the file is left out of the set.
 */
export interface RenditionRecord {
  orderId: string;
  longEdge: number;
  editedKey: string;
  /** The size of the edited file the copy was made from: a file replaced since is made again. */
  sourceSize: number;
  status: 'ready' | 'skipped';
  renditionKey?: string;
  width?: number;
  height?: number;
  bytes?: number;
  quality?: number;
  reason?: string;
  createdAt: string;
  updatedAt: string;
}

const renditions = () => marketplace().entities.rendition;

/** Every copy (and skipped file) of an order at one long edge: one Query, bounded by the order's photos. */
export const listRenditions = async (orderId: string, longEdge: MlsLongEdge) => {
  const { data } = await renditions().query.byOrder({ orderId, longEdge }).go({ pages: 'all' });
  return data as RenditionRecord[];
};

/** Whether a record is for this very file (same key and size): anything else is to be made again. */
export const isCurrentFor = (record: RenditionRecord | undefined, image: { key: string; size: number }) =>
  !!record && record.editedKey === image.key && record.sourceSize === image.size;
