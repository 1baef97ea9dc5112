import { createJobTypeInput } from '@marketplace/events/admin';
import { createJobType } from '../../data/job-types';
import { http } from '../../http/http';
import { created } from '../../http/responses';

/** A new, active job type; a name already in use (in any case) is a 409. */
export const handler = http({ body: createJobTypeInput }, async ({ body }) => created(await createJobType(body)));
