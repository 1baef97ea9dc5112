import {
  ADMIN_ORDERS_PAGE_SIZE,
  ADMIN_USERS_MAX_LIMIT,
  type AdminEditorListResponse,
  type AdminEditorView,
  type AdminOrderListResponse,
  type AdminOrderSort,
  type AdminOrderView,
  type AssignmentFilter,
  type BulkAssignResponse,
  type CancelOrderResponse,
} from '@marketplace/events/admin';
import useSWR, { useSWRConfig } from 'swr';
import { apiDelete, apiGet, apiPatch, apiPost } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { adminEditorsUrl } from './editors';

const ADMIN_ORDERS_PATH = '/api/orders/admin';
const ADMIN_ORDERS_LIST_PATH = `${ADMIN_ORDERS_PATH}/all`;
export const ADMIN_EDITORS_URL = '/api/admin/editors';

export interface AdminOrdersPageQuery {
  page: number;
  assignmentFilter: AssignmentFilter;
  sortBy: AdminOrderSort;
  searchTerm: string;
  /** The previous page's nextCursor; none on page one. */
  cursor?: string;
}

const adminOrdersUrl = ({ page, assignmentFilter, sortBy, searchTerm, cursor }: AdminOrdersPageQuery) => {
  const query = new URLSearchParams({
    page: String(page),
    limit: String(ADMIN_ORDERS_PAGE_SIZE),
    assignmentFilter,
    sortBy,
  });
  const term = searchTerm.trim();
  if (term) query.set('searchTerm', term);
  if (cursor) query.set('cursor', cursor);
  return `${ADMIN_ORDERS_LIST_PATH}?${query}`;
};

/** Any cached page of the admin's order list, whichever filter, sort, search or page. */
const isAdminOrdersKey = (key: unknown) =>
  Array.isArray(key) && typeof key[0] === 'string' && key[0].startsWith(`${ADMIN_ORDERS_LIST_PATH}?`);

/** One page of every order, as the admin filters, sorts and searches it; the page before stays while the next loads. */
export function useAdminOrders(query: AdminOrdersPageQuery) {
  const { user } = useAuth();
  return useSWR<AdminOrderListResponse>(user ? [adminOrdersUrl(query), user.uid] : null, { keepPreviousData: true });
}

/** Only verified editors whose accounts are active may be given orders. */
export const isAssignableEditor = (editor: AdminEditorView) => editor.status === 'verified' && editor.isActive;

/** Every editor, a page of the most the server gives at a time: any of them may be picked. */
const allEditors = async (): Promise<AdminEditorView[]> => {
  const editors: AdminEditorView[] = [];
  let cursor: string | undefined;
  let page = 1;
  do {
    const answer = await apiGet<AdminEditorListResponse>(
      adminEditorsUrl({ page, limit: ADMIN_USERS_MAX_LIMIT, cursor }),
    );
    editors.push(...answer.editors);
    cursor = answer.nextCursor ?? undefined;
    page += 1;
  } while (cursor);
  return editors;
};

/** The editors an order can be given to, by name. */
export function useAssignableEditors() {
  const { user } = useAuth();
  const result = useSWR(user ? [`${ADMIN_EDITORS_URL}?all`, user.uid] : null, allEditors);
  const editors = result.data?.filter(isAssignableEditor).sort((a, b) => editorName(a).localeCompare(editorName(b)));
  return { ...result, editors };
}

export const editorName = (editor: Pick<AdminEditorView, 'displayName' | 'email'>) =>
  editor.displayName?.trim() || editor.email;

const orderUrl = (orderId: string, action: 'assign' | 'unassign' | 'cancel') =>
  `${ADMIN_ORDERS_PATH}/${encodeURIComponent(orderId)}/${action}`;

/**
 * The admin's order actions. Each asks for every cached page of the list afresh once it is done,
 * since an action can move an order from one filter's pages to another's.
 */
export function useAdminOrderActions() {
  const { mutate } = useSWRConfig();
  const afterwards = async <T>(request: Promise<T>) => {
    const answer = await request;
    // The action has succeeded whether or not the refresh does; the caller need not wait for it.
    void mutate(isAdminOrdersKey);
    return answer;
  };
  return {
    assign: (orderId: string, editorId: string) =>
      afterwards(apiPatch<AdminOrderView>(orderUrl(orderId, 'assign'), { editorId })),
    unassign: (orderId: string) => afterwards(apiDelete<AdminOrderView>(orderUrl(orderId, 'unassign'))),
    bulkAssign: (orderIds: string[], editorId: string) =>
      afterwards(apiPost<BulkAssignResponse>(`${ADMIN_ORDERS_PATH}/bulk-assign`, { orderIds, editorId })),
    cancel: (orderId: string) => afterwards(apiPost<CancelOrderResponse>(orderUrl(orderId, 'cancel'))),
  };
}
