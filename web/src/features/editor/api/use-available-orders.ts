import type { AvailableOrdersQuery, AvailableOrdersResponse } from '@marketplace/events/editor-orders';
import useSWR from 'swr';
import { useAuth } from '../../../lib/auth-context';

/** The spec's 'Editor available-orders page size' (section 9); the API's own default is larger. */
export const AVAILABLE_ORDERS_PAGE_SIZE = 10;

const AVAILABLE_ORDERS_PATH = '/api/orders/available';

export type AvailableOrdersPageQuery = Omit<AvailableOrdersQuery, 'limit'>;

/** `cursor` is the previous page's nextCursor: the page is read from there, however deep. */
const availableOrdersUrl = ({ page, filter, sort, tier, cursor }: AvailableOrdersPageQuery) =>
  `${AVAILABLE_ORDERS_PATH}?${new URLSearchParams({
    page: String(page),
    limit: String(AVAILABLE_ORDERS_PAGE_SIZE),
    filter,
    sort,
    ...(tier ? { tier } : {}),
    ...(cursor ? { cursor } : {}),
  })}`;

/** Any cached page of available orders, whichever page, filter or sort. */
export const isAvailableOrdersKey = (key: unknown) =>
  Array.isArray(key) && typeof key[0] === 'string' && key[0].startsWith(`${AVAILABLE_ORDERS_PATH}?`);

/** One page of the orders this editor may claim, filtered and sorted by the server; the previous page stays while the next loads. */
export function useAvailableOrders(query: AvailableOrdersPageQuery) {
  const { user } = useAuth();
  return useSWR<AvailableOrdersResponse>(user ? [availableOrdersUrl(query), user.uid] : null, {
    keepPreviousData: true,
  });
}
