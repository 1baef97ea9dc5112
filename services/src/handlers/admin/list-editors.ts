import { listEditors } from '../../data/admin-editors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Every editor, invited ones included, with rates and what is pending and paid out. */
export const handler = http({}, async () => ok({ editors: await listEditors() }));
