import { type ReceiptLinkView, receiptFilename, receiptParams } from '@marketplace/events/billing';
import { GET_OBJECT_QUERY, presignedUrl } from '../../adapters/s3-requests';
import { attachmentDisposition } from '../../adapters/zip-downloads';
import { getBillingEntry } from '../../data/billing';
import { getOwnOrder } from '../../data/orders';
import { NotFound } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** A receipt link is for starting the download now: five minutes, like a zip's. */
const RECEIPT_LINK_SECONDS = 5 * 60;

/**
 * 'Download receipt': a presigned link to the caller's own receipt, named for the order. The entry
 * is read from the caller's own partition, so an id of anyone else's receipt finds nothing (404).
 */
export const handler = http({ params: receiptParams }, async ({ params, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  const entry = await getBillingEntry(user.userId, params.receiptId);
  if (!entry || entry.orderId !== order.orderId) throw new NotFound('Receipt not found');
  if (!entry.receiptKey) {
    const preparing: ReceiptLinkView = { status: 'preparing' };
    return ok(preparing);
  }
  const filename = receiptFilename({ kind: entry.kind, orderNumber: entry.orderNumber, receiptNumber: entry.entryId });
  const url = await presignedUrl({
    method: 'GET',
    key: entry.receiptKey,
    query: { ...GET_OBJECT_QUERY, 'response-content-disposition': attachmentDisposition(filename) },
    expiresIn: RECEIPT_LINK_SECONDS,
  });
  const view: ReceiptLinkView = { status: 'ready', url, filename };
  return ok(view);
});
