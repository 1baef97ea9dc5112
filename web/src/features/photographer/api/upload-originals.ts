import type { OrderImageView } from '@marketplace/events/orders';
import { completeUpload } from '../../../lib/uploads/direct-s3-upload';

/** Tells the API an original is in S3; only then does it count towards the order. */
export const registerOriginal = (orderId: string, upload: { key: string; filename: string }) =>
  completeUpload<{ image: OrderImageView; photographerUploadCount: number }>(
    `/api/orders/${encodeURIComponent(orderId)}/uploads/complete`,
    upload,
  );
