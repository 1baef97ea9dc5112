import { getDataExport } from '../../data/data-exports';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { toDataExportView } from './data-export-view';

/** The account's latest data download: preparing, ready (with a fresh link), failed or expired. */
export const handler = http({}, async ({ user }) => ok(await toDataExportView(await getDataExport(user.userId))));
