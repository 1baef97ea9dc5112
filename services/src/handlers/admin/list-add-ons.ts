import { listAddOnRecords, toAddOnView } from '../../data/add-ons';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Every add-on, withdrawn ones too, in sort order: the admin turns them on and off here. */
export const handler = http({}, async () => ok((await listAddOnRecords({ activeOnly: false })).map(toAddOnView)));
