import { emailKindLabels, type UnsubscribeView } from '@marketplace/events/notifications';
import { unsubscribeKey } from '../../adapters/unsubscribe-key';
import { checkUnsubscribeToken } from '../../domain/unsubscribe-token';
import { BadRequest, HttpError, NotFound } from '../../http/errors';

/**
 * What an unsubscribe link's token names, or the error the two unsubscribe routes answer: a
 * token that is not ours or was changed is 400, one past its date 410 (the email is too old; the
 * profile page still has the switch).
 */
export const linkOf = async (token: string) => {
  const check = checkUnsubscribeToken(await unsubscribeKey(), token);
  if (check.valid) return check;
  if (check.reason === 'expired') {
    throw new HttpError(
      410,
      'LINK_EXPIRED',
      'This unsubscribe link has expired. Sign in and turn the email off on your profile page.',
    );
  }
  throw new BadRequest(
    'This unsubscribe link is not valid. Check that you copied all of it.',
    undefined,
    'INVALID_LINK',
  );
};

export const noSuchAccount = () => new NotFound('The account this link was sent to no longer exists');

export const unsubscribeView = (kind: UnsubscribeView['kind'], enabled: boolean): UnsubscribeView => ({
  kind,
  label: emailKindLabels[kind],
  enabled,
});

/** Link scanners and the mailbox provider may call these: nothing is cached or indexed. */
export const unsubscribeHeaders = {
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex',
  'referrer-policy': 'no-referrer',
};
