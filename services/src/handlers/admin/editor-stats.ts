import { roleParams } from '@marketplace/events/admin';
import * as z from '@marketplace/events/zod';
import { adminEditorStats } from '../../data/admin-editors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

const params = z.pick(roleParams, { id: true });

/** An editor's average rating and turnaround, from their counters. */
export const handler = http({ params }, async ({ params }) => ok(await adminEditorStats(params.id)));
