import * as z from '@marketplace/events/zod';
import { checkEmail } from '../../data/admin-users';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Decoded here too: a gateway may pass the path segment still percent-encoded ('%40' for '@'). */
const pathText = z.pipe(
  z.string(),
  z.transform((value) => {
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }),
);
const params = z.object({
  email: z.pipe(pathText, z.email('Please enter a valid email address.').check(z.maxLength(254))),
});

/** Whether an email is free to invite: registered, already invited, or available. */
export const handler = http({ params }, async ({ params }) => ok(await checkEmail(params.email)));
