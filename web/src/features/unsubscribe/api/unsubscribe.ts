import type { UnsubscribeView } from '@marketplace/events/notifications';
import { apiGet, apiPost } from '../../../lib/api-client';

const linkUrl = (token: string) => `/api/unsubscribe?token=${encodeURIComponent(token)}`;

/** Which email the link is about and whether it still goes out. Reading changes nothing. */
export const readUnsubscribeLink = (token: string) => apiGet<UnsubscribeView>(linkUrl(token));

/** Turns that kind of email off (the same endpoint mailbox providers' one-click POST reaches). */
export const unsubscribe = (token: string) => apiPost<UnsubscribeView>(linkUrl(token));
