import { listJobTypes } from '../../data/job-types';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

export const handler = http({}, async () => ok(await listJobTypes({ activeOnly: true })));
