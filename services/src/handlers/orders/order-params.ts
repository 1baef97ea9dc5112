import * as z from '@marketplace/events/zod';

/** `{id}` in an order route: a ULID-like id, so junk never reaches the table. */
export const orderParams = z.object({ id: z.string().check(z.regex(/^[0-9A-Za-z]{10,40}$/, 'Not an order id')) });
