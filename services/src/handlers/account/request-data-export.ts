import * as z from '@marketplace/events/zod';
import { requestDataExport } from '../../data/data-exports';
import { requestOrigin } from '../../data/security-activity';
import { http } from '../../http/http';
import { requireRecentSignIn } from '../../http/recent-sign-in';
import { json } from '../../http/responses';
import { toDataExportView } from './data-export-view';

/**
 * 'Download my data': starts gathering the account's records (the export worker emails a link when
 * the zip is ready). One at a time per account: a second request while one is prepared is a 409.
 * A fresh sign-in is asked for, as for every security action: the link goes to the email on file.
 */
export const handler = http({ body: z.strictObject({}) }, async ({ user, event }) => {
  requireRecentSignIn(event);
  const record = await requestDataExport({ userId: user.userId, origin: requestOrigin(event) });
  return json(202, await toDataExportView(record));
});
