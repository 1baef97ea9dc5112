import { z } from 'zod';
import { checkEmail } from '../../data/admin-users';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

const params = z.object({ email: z.email('Please enter a valid email address.').max(254) });

/** Whether an email is free to invite: registered, already invited, or available. */
export const handler = http({ params }, async ({ params }) => ok(await checkEmail(params.email)));
