import { listAddOnRecords, toOfferedAddOnView } from '../../data/add-ons';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** The add-ons offered now, with their prices per photo, for the photographer's picker. */
export const handler = http({}, async () => ok((await listAddOnRecords({ activeOnly: true })).map(toOfferedAddOnView)));
