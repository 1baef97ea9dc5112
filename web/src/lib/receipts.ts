import { billingMessages, type ReceiptLinkView } from '@marketplace/events/billing';
import { apiGet } from './api-client';
import { startBrowserDownload } from './download-completed';

/** A receipt not made yet when the link was asked for: the worker makes it within seconds. */
export class ReceiptPreparing extends Error {
  constructor() {
    super(billingMessages.receiptPreparing);
    this.name = 'ReceiptPreparing';
  }
}

/** 'Download receipt': a short-lived link to the caller's own PDF, handed to the browser as a download. */
export async function downloadReceipt(orderId: string, receiptId: string) {
  const link = await apiGet<ReceiptLinkView>(
    `/api/orders/${encodeURIComponent(orderId)}/receipts/${encodeURIComponent(receiptId)}`,
  );
  if (link.status !== 'ready') throw new ReceiptPreparing();
  startBrowserDownload(link.url, link.filename);
}
