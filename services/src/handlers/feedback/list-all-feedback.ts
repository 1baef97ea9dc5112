import { adminFeedbackQuery } from '@marketplace/events/admin';
import { listAllFeedback } from '../../data/feedback';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Every user's feedback for the admin, newest first, by status and type. */
export const handler = http({ query: adminFeedbackQuery }, async ({ query }) => ok(await listAllFeedback(query)));
