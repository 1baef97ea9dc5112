import * as z from 'zod';
import { checkEmail } from '../../data/admin-users';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Decoded here too: a gateway may pass the path segment still percent-encoded ('%40' for '@'). */
const pathText = z.string().transform((value) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
});
const params = z.object({ email: pathText.pipe(z.email('Please enter a valid email address.').max(254)) });

/** Whether an email is free to invite: registered, already invited, or available. */
export const handler = http({ params }, async ({ params }) => ok(await checkEmail(params.email)));
