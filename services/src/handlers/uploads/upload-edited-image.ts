import { randomUUID } from 'node:crypto';
import { editorUploadMessages, type UploadResultView } from '@marketplace/events/editor-orders';
import { putObject } from '../../adapters/presigned-uploads';
import { getClaimedOrder, registerEdited } from '../../data/orders';
import {
  baseFilename,
  editedContentType,
  editedUploads,
  filenameRefusal,
  orderAcceptsEdits,
  uploadKeyFor,
} from '../../domain/upload-rules';
import { BadRequest } from '../../http/errors';
import { http } from '../../http/http';
import { readMultipartForm, type UploadedFile } from '../../http/multipart-form';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';
import { throwIfRefused } from './direct-upload';

const EDITED_IMAGE_FIELD = 'editedImage';

/**
 * For small files and API clients: one edited file in a multipart body (field editedImage), stored
 * under the order's edited prefix and registered like a direct upload. Larger files go straight to
 * storage through /api/orders/{id}/edited-uploads/sign.
 */
export const handler = http({ params: orderParams }, async ({ params, event, user }) => {
  const order = await getClaimedOrder(params.id, user);
  throwIfRefused(orderAcceptsEdits(order));
  const form = await readMultipartForm(event, {
    notMultipart: `Send the file as multipart/form-data in the "${EDITED_IMAGE_FIELD}" field`,
    tooLarge: `This request is larger than 4 MB. Upload the file directly to storage with /api/orders/${order.orderId}/edited-uploads/sign.`,
  });
  const files = form.getAll(EDITED_IMAGE_FIELD).filter((value): value is UploadedFile => typeof value !== 'string');
  if (!files.length) throw new BadRequest(editorUploadMessages.noFile);
  if (files.length > 1) throw new BadRequest(`Send one file per request in the "${EDITED_IMAGE_FIELD}" field`);
  const file = files[0]!;
  const filename = baseFilename(file.name);
  throwIfRefused(filenameRefusal(editedUploads, filename));

  const key = uploadKeyFor(editedUploads, order.orderId, randomUUID(), filename);
  const contentType = editedContentType(filename);
  await putObject({ key, body: new Uint8Array(await file.arrayBuffer()), contentType });
  await registerEdited({
    order,
    editorId: user.userId,
    key,
    filename,
    size: file.size,
    contentType,
    lastModified: new Date().toISOString(),
  });
  const result: UploadResultView = { filename };
  return ok(result);
});
