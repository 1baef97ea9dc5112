import { addOnId, updateAddOnInput } from '@marketplace/events/add-ons';
import * as z from '@marketplace/events/zod';
import { updateAddOn } from '../../data/add-ons';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Name, prices, sort order or whether it is offered; orders keep the prices they were priced with. */
export const handler = http({ params: z.object({ id: addOnId }), body: updateAddOnInput }, async ({ params, body }) =>
  ok(await updateAddOn(params.id, body)),
);
