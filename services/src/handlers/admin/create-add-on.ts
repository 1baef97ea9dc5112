import { createAddOnInput } from '@marketplace/events/add-ons';
import { createAddOn } from '../../data/add-ons';
import { http } from '../../http/http';
import { created } from '../../http/responses';

/** A new add-on, offered at once. */
export const handler = http({ body: createAddOnInput }, async ({ body }) => created(await createAddOn(body)));
