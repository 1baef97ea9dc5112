import { emailKindLabels, switchableKindsFor, updateNotificationsInput } from '@marketplace/events/notifications';
import { setEmailSwitches } from '../../data/email-preferences';
import { BadRequest } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { settingsView } from './settings-view';

/**
 * PATCH /api/account/notifications {"emails": {"photos_ready": false}}: turns the named kinds on
 * or off at once. A kind the caller's roles do not receive is refused whole, before anything is written.
 */
export const handler = http({ body: updateNotificationsInput }, async ({ user, body }) => {
  const theirs = new Set<string>(switchableKindsFor(user.roles));
  const changes = Object.fromEntries(Object.entries(body.emails).filter(([, on]) => on !== undefined));
  const foreign = Object.keys(changes).filter((kind) => !theirs.has(kind));
  if (foreign.length) {
    throw new BadRequest(
      `You don't receive ${foreign.map((kind) => `“${emailKindLabels[kind as keyof typeof emailKindLabels]}”`).join(' or ')} emails`,
      foreign.map((kind) => ({ path: `body.emails.${kind}`, message: 'Not an email your account receives' })),
      'VALIDATION_FAILED',
    );
  }
  const muted = await setEmailSwitches(user.userId, changes);
  return ok(settingsView(user.roles, muted));
});
