import { sharedDownloadKinds } from '@marketplace/events/delivery';
import * as z from '@marketplace/events/zod';
import { orderParams } from '../orders/order-params';

/** `{id}/share-links/{linkId}`: the order's id and a link id (a ULID). */
export const shareLinkParams = z.extend(orderParams, {
  linkId: z.string().check(z.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'Not a share link id')),
});

/**
 * `{token}` is taken as any text: a malformed token answers the same 404 as an unknown, expired
 * or revoked one (the handler checks its form), so the answer never tells them apart.
 */
export const shareTokenParams = z.object({ token: z.string() });

export const sharedDownloadParams = z.extend(shareTokenParams, { kind: z.enum(sharedDownloadKinds) });
