import { unsubscribeQuery } from '@marketplace/events/notifications';
import { setEmailSwitches } from '../../data/email-preferences';
import { publicHttp } from '../../http/http';
import { ok } from '../../http/responses';
import { linkOf, unsubscribeHeaders, unsubscribeView } from './unsubscribe-link';

/**
 * POST /api/unsubscribe?token=...: RFC 8058's one-click unsubscribe, and the unsubscribe page's
 * button. The mailbox provider POSTs `List-Unsubscribe=One-Click` (form-encoded) with no cookie or
 * sign-in; the token alone says whose email of which kind. Turns that kind off and nothing else;
 * again is the same (a set's ADD). The body is not read: the token is the whole request.
 */
export const handler = publicHttp(
  { query: unsubscribeQuery },
  async ({ query }) => {
    const link = await linkOf(query.token);
    await setEmailSwitches(link.userId, { [link.kind]: false });
    return ok(unsubscribeView(link.kind, false));
  },
  { headers: unsubscribeHeaders },
);
