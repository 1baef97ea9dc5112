import type { CreateOrderResponse } from '@marketplace/events/orders';

/**
 * The order being created in this tab, kept in sessionStorage so a reload returns to the same
 * order (and its uploads) instead of creating another one.
 */
export interface PendingOrder {
  /** Who created it: a tab shared by two sign-ins never shows one person's order to the other. */
  ownerUid: string;
  order: CreateOrderResponse['order'];
  clientSecret: string;
  /** Every file chosen for the order, by Uppy file id: whether S3 has it and the API counted it. */
  uploads: Record<string, PendingUpload>;
  /** Every file is in S3 and counted: the payment step is next. */
  uploadsComplete?: boolean;
}

export interface PendingUpload {
  filename: string;
  size: number;
  /** The HDR scene the browser grouped the file into, sent when it is registered. */
  scene?: number;
  /** The S3 key, once S3 has the whole file. */
  key?: string;
  registered: boolean;
}

const STORAGE_KEY = 'create-order:pending';

export function readPendingOrder(ownerUid: string | undefined): PendingOrder | null {
  try {
    const stored = sessionStorage.getItem(STORAGE_KEY);
    const pending = stored ? (JSON.parse(stored) as PendingOrder) : null;
    return pending && pending.ownerUid === ownerUid ? pending : null;
  } catch {
    return null;
  }
}

export function writePendingOrder(pending: PendingOrder) {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(pending));
  } catch {
    // Storage full or blocked: the upload still runs, it just cannot survive a reload.
  }
}

export function clearPendingOrder() {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing stored to clear.
  }
}
