import { adminEditorsQuery } from '@marketplace/events/admin';
import { listEditors } from '../../data/admin-editors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** One page of editors, invited ones included, with rates and what is pending and paid out. */
export const handler = http({ query: adminEditorsQuery }, async ({ query }) => ok(await listEditors(query)));
