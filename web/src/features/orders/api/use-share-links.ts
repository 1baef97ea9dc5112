import type { CreatedShareLinkView, ShareLinkView } from '@marketplace/events/delivery';
import useSWR, { useSWRConfig } from 'swr';
import { apiDelete, apiPatch, apiPost } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';

export const shareLinksUrl = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}/share-links`;
const shareLinkUrl = (orderId: string, linkId: string) => `${shareLinksUrl(orderId)}/${encodeURIComponent(linkId)}`;

/** The order's share links as its photographer sees them, newest first, with their views and downloads. */
export function useShareLinks(orderId: string) {
  const { user } = useAuth();
  return useSWR<{ links: ShareLinkView[] }>(user ? [shareLinksUrl(orderId), user.uid] : null);
}

/**
 * Making, extending and revoking the order's links; each refreshes the list. Creation answers the
 * token, the only time it is ever seen.
 */
export function useShareLinkActions(orderId: string) {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  const refresh = () => mutate([shareLinksUrl(orderId), user?.uid]);
  return {
    create: async (expiresInDays: number) => {
      const created = await apiPost<CreatedShareLinkView>(shareLinksUrl(orderId), { expiresInDays });
      await refresh();
      return created;
    },
    extend: async (linkId: string, expiresInDays: number) => {
      const updated = await apiPatch<ShareLinkView>(shareLinkUrl(orderId, linkId), { expiresInDays });
      await refresh();
      return updated;
    },
    revoke: async (linkId: string) => {
      const revoked = await apiDelete<ShareLinkView>(shareLinkUrl(orderId, linkId));
      await refresh();
      return revoked;
    },
  };
}
