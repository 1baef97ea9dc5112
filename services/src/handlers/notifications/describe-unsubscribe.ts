import { unsubscribeQuery } from '@marketplace/events/notifications';
import { mutedEmailKinds } from '../../data/email-preferences';
import { publicHttp } from '../../http/http';
import { ok } from '../../http/responses';
import { linkOf, noSuchAccount, unsubscribeHeaders, unsubscribeView } from './unsubscribe-link';

/**
 * GET /api/unsubscribe?token=...: which email the link is about and whether it still goes out,
 * for the page that turns it off. Changes nothing: link scanners open every link in an email.
 */
export const handler = publicHttp(
  { query: unsubscribeQuery },
  async ({ query }) => {
    const link = await linkOf(query.token);
    const muted = await mutedEmailKinds(link.userId);
    if (!muted) throw noSuchAccount();
    return ok(unsubscribeView(link.kind, !muted.has(link.kind)));
  },
  { headers: unsubscribeHeaders },
);
