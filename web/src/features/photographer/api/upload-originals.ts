import type { OrderImageView } from '@marketplace/events/orders';
import { completeUpload } from '../../../lib/uploads/direct-s3-upload';

/** Tells the API an original is in S3 (and its HDR scene); only then does it count towards the order. */
export const registerOriginal = (orderId: string, upload: { key: string; filename: string; scene?: number }) =>
  completeUpload<{ image: OrderImageView; photographerUploadCount: number }>(
    `/api/orders/${encodeURIComponent(orderId)}/uploads/complete`,
    upload,
  );
