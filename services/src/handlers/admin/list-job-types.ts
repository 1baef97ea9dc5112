import { listJobTypes } from '../../data/job-types';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Every job type, inactive ones too, by name: the admin turns them on and off here. */
export const handler = http({}, async () => ok(await listJobTypes({ activeOnly: false })));
