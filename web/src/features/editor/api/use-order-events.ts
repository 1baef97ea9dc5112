import type { OrderEventView } from '@marketplace/events/editor-orders';
import useSWR from 'swr';
import { useAuth } from '../../../lib/auth-context';
import { editorOrderUrls } from './use-editor-order';

/** The order's activity log; asked for only while `enabled` (the Activity Log tab is open). */
export function useOrderEvents(orderId: string | undefined, enabled: boolean) {
  const { user } = useAuth();
  return useSWR<{ events: OrderEventView[] }>(
    enabled && user && orderId ? [editorOrderUrls(orderId).events, user.uid] : null,
    { dedupingInterval: 0 },
  );
}
