import { myAssignmentsQuery } from '@marketplace/events/editor-orders';
import { listMyAssignmentsPage } from '../../data/my-assignments';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** The editor's orders in progress or back for a revision, newest first, a page at a time. */
export const handler = http({ query: myAssignmentsQuery }, async ({ query, user }) =>
  ok(await listMyAssignmentsPage(user.userId, query)),
);
