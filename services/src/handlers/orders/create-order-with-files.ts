import { randomUUID } from 'node:crypto';
import {
  type CreateOrderInput,
  createOrderInput,
  orderFormMessages,
  photoContentType,
} from '@marketplace/events/orders';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { putObject } from '../../adapters/presigned-uploads';
import { getOrder, registerOriginal } from '../../data/orders';
import { createPricedOrder, findOfferedJobType, toCreatedOrderResponse } from '../../data/priced-order';
import {
  baseFilename,
  exceedsOriginalCap,
  originalFilenameRefusal,
  originalKeyFor,
  originalTooLargeMessage,
} from '../../domain/upload-rules';
import { BadRequest } from '../../http/errors';
import { http } from '../../http/http';
import {
  MAX_MULTIPART_BODY_BYTES,
  type MultipartForm,
  readMultipartForm,
  type UploadedFile,
} from '../../http/multipart-form';
import { created } from '../../http/responses';

export const MAX_WITH_FILES_BODY_BYTES = MAX_MULTIPART_BODY_BYTES;

const readForm = (event: APIGatewayProxyEventV2) =>
  readMultipartForm(event, {
    notMultipart: 'Send the order as multipart/form-data with its photos in repeated "photos" fields',
    tooLarge:
      'This request is larger than 4 MB. Create the order with POST /api/orders and upload the photos directly to storage with /api/orders/{id}/uploads/sign.',
  });

const textField = (form: MultipartForm, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : undefined;
};

const orderInputFrom = (form: MultipartForm): CreateOrderInput => {
  const parsed = createOrderInput.safeParse({
    jobTypeId: textField(form, 'jobTypeId'),
    name: textField(form, 'name'),
    photoCount: textField(form, 'photoCount'),
    editingRequirements: textField(form, 'editingRequirements'),
  });
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((issue) => ({
    path: ['body', ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw new BadRequest(parsed.error.issues[0]?.message ?? 'Invalid order', details, 'VALIDATION_FAILED');
};

/** Every photo checked (type, name, size, count) before anything is written. */
const photosFrom = (form: MultipartForm, photoCount: number) => {
  const photos = form.getAll('photos').filter((value): value is UploadedFile => typeof value !== 'string');
  if (!photos.length) throw new BadRequest(orderFormMessages.noFiles);
  for (const photo of photos) {
    const refusal = originalFilenameRefusal(baseFilename(photo.name));
    if (refusal) throw new BadRequest(`${photo.name}: ${refusal.message}`);
    if (exceedsOriginalCap(photo.size)) throw new BadRequest(originalTooLargeMessage(photo.size));
  }
  if (photos.length < photoCount) throw new BadRequest(orderFormMessages.tooFewFiles(photoCount, photos.length));
  return photos;
};

/**
 * For API clients: an order and its photos in one multipart request (small files only, see
 * docs/decisions/0035-order-with-files-capped-at-4-mb.md). The order is created as POST /api/orders creates it, then each photo is put
 * under the order's originals and registered like a direct upload.
 */
export const handler = http({}, async ({ event, user }) => {
  const form = await readForm(event);
  const input = orderInputFrom(form);
  const photos = photosFrom(form, input.photoCount);
  await findOfferedJobType(input.jobTypeId);
  const { order, stripeClientSecret } = await createPricedOrder({
    photographer: { userId: user.userId, name: user.displayName ?? user.email },
    input,
  });
  // One at a time: each registration is a transaction on the same order item.
  for (const photo of photos) {
    const filename = baseFilename(photo.name);
    const key = originalKeyFor(order.orderId, randomUUID(), filename);
    const contentType = photoContentType(filename);
    await putObject({ key, body: new Uint8Array(await photo.arrayBuffer()), contentType });
    await registerOriginal({
      order,
      key,
      filename,
      size: photo.size,
      contentType,
      lastModified: new Date().toISOString(),
    });
  }
  return created(toCreatedOrderResponse((await getOrder(order.orderId)) ?? order, stripeClientSecret));
});
