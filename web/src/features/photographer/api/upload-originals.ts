import type { OrderImageView, SignedUploadRequest, SignUploadInput } from '@marketplace/events/orders';
import { apiPost } from '../../../lib/api-client';

/** Asks the API to presign one S3 request of an original's upload. */
export const signOriginalUpload = (orderId: string, request: SignUploadInput) =>
  apiPost<SignedUploadRequest>(`/api/orders/${orderId}/uploads/sign`, request);

/** Tells the API an original is in S3; only then does it count towards the order. */
export const registerOriginal = (orderId: string, upload: { key: string; filename: string }) =>
  apiPost<{ image: OrderImageView; photographerUploadCount: number }>(
    `/api/orders/${orderId}/uploads/complete`,
    upload,
  );
