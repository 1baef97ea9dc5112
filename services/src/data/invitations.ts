import { createHash, randomBytes } from 'node:crypto';
import {
  INVITATION_TTL_DAYS,
  type InvitationVerificationView,
  invitationMessages,
} from '@marketplace/events/invitations';
import type { Role } from '@marketplace/events/roles';
import { ulid } from 'ulid';
import { sendEmail } from '../adapters/email';
import { verifyIdToken } from '../adapters/id-token';
import { logger } from '../adapters/logger';
import { config } from '../config';
import { invitationEmail } from '../domain/invitation-email';
import { BadRequest, Conflict, Forbidden, HttpError } from '../http/errors';
import { getRecord, models, query, queryAll } from './direct-reads';
import { writers } from './direct-writes';
import { knownJobTypes } from './editor-rates';
import { commitAll, TransactionCancelled } from './transactions';
import { userTotalChanges, userTotalMoves } from './user-totals';
import { claimEmail, emailTaken, getUser, isPlaceholderUserId, PLACEHOLDER_PREFIX, type UserRecord } from './users';

/**
 * Editors join by invitation. The token is 32 random bytes sent only in the email; the table
 * keeps its SHA-256, so a leaked table cannot be turned into working links.
 *
 * The invited editor needs a user record before any Firebase account exists (the admin lists
 * invited editors with their rates). It is keyed by a placeholder id, `invited-<ulid>`, and
 * re-keyed to the Firebase uid when the invitation is accepted: the sign-up transaction creates
 * (or extends) the uid's record, moves the rates and deletes the placeholder.
 */
const DAY_SECONDS = 24 * 60 * 60;

export const newInvitationToken = () => randomBytes(32).toString('base64url');

export const hashInvitationToken = (token: string) => createHash('sha256').update(token).digest('hex');

interface InvitationRecord {
  tokenHash: string;
  email: string;
  displayName: string;
  invitedBy: string;
  userId: string;
  status: 'pending' | 'accepted' | 'revoked';
  acceptedAt?: string;
  /** Epoch seconds; also the table's TTL, so long-expired invitations disappear. */
  expiresAt: number;
  createdAt: string;
}

interface RateRecord {
  editorId: string;
  jobTypeId: string;
  ratePerPhotoCents: number;
}

export interface OfferedRate {
  jobTypeId: string;
  jobTypeName: string;
  ratePerPhotoCents: number;
}

/** A transaction cancelled by a condition or by a concurrent transaction on the same items. */
const lostRace = (error: unknown) =>
  error instanceof TransactionCancelled &&
  error.reasons.some((r) => r === 'ConditionalCheckFailed' || r === 'TransactionConflict');

const nowSeconds = () => Math.floor(Date.now() / 1000);

const usersWithEmail = async (email: string) => {
  return queryAll<UserRecord & { invitedAt?: string }>(models.user, 'byEmail', { email });
};

const pendingInvitationsFor = async (email: string) => {
  const { data } = await query<InvitationRecord>(models.invitation, 'byEmail', { email })
    .where([{ attribute: 'status', op: 'eq', value: 'pending' }])
    .go({ pages: 'all' });
  return data;
};

const ratesOf = (editorId: string) => queryAll<RateRecord>(models.editorRate, 'byEditor', { editorId });

/** Rates with their job type names; every job type must exist. */
const withJobTypeNames = async (rates: readonly { jobTypeId: string; ratePerPhotoCents: number }[]) => {
  const jobTypes = await knownJobTypes(rates.map((r) => r.jobTypeId));
  return rates.map((r) => ({ ...r, jobTypeName: jobTypes.get(r.jobTypeId)!.name }));
};

export interface CreatedInvitation {
  token: string;
  tokenHash: string;
  expiresAt: Date;
  user: { userId: string; email: string; displayName: string; status: 'invited'; roles: Role[]; invitedAt: string };
  rates: OfferedRate[];
}

/**
 * Writes the invited editor (a placeholder user with its rates) and a pending invitation in one
 * transaction, revoking any earlier pending invitation for the same email. A second invitation
 * to the same person reuses their placeholder and replaces its rates.
 */
export const createInvitation = async (input: {
  email: string;
  displayName: string;
  jobTypeRates: readonly { jobTypeId: string; ratePerPhotoCents: number }[];
  invitedBy: string;
}): Promise<CreatedInvitation> => {
  const rates = await withJobTypeNames(input.jobTypeRates);
  const existingUsers = await usersWithEmail(input.email);
  if (existingUsers.some((u) => u.status === 'verified' && u.roles.includes('editor'))) {
    throw new Conflict('This email already belongs to an editor');
  }
  const placeholder = existingUsers.find((u) => isPlaceholderUserId(u.userId));
  // An account that already has this email keeps it; otherwise the placeholder holds it until sign-up.
  const accountHoldsEmail = existingUsers.some((u) => !isPlaceholderUserId(u.userId) && !u.deletedAt);
  const userId = placeholder?.userId ?? `${PLACEHOLDER_PREFIX}${ulid()}`;
  const staleRates = placeholder
    ? (await ratesOf(userId)).filter((old) => !rates.some((r) => r.jobTypeId === old.jobTypeId))
    : [];
  const earlier = await pendingInvitationsFor(input.email);

  const token = newInvitationToken();
  const tokenHash = hashInvitationToken(token);
  const invitedAt = new Date();
  const expiresAtSeconds = nowSeconds() + INVITATION_TTL_DAYS * DAY_SECONDS;
  const user = {
    userId,
    email: input.email,
    displayName: input.displayName,
    status: 'invited' as const,
    roles: ['editor'] as Role[],
    invitedAt: invitedAt.toISOString(),
  };

  try {
    await commitAll((e) => [
      placeholder
        ? e.user
            .patch({ userId })
            .set({ displayName: user.displayName, invitedAt: user.invitedAt, roles: user.roles, isEditor: 'editor' })
            // Still a placeholder: accepting an earlier invitation deletes it.
            .where(({ status }, { eq }) => eq(status, 'invited'))
            .commit()
        : e.user.create({ ...user, isEditor: 'editor' }).commit(),
      // The admin list's totals: a new placeholder counts as invited; a reused one keeps its cells.
      ...userTotalMoves(e, placeholder ?? null, { ...(placeholder ?? { isActive: true }), ...user }),
      ...(accountHoldsEmail ? [] : [claimEmail(e, input.email, userId)]),
      ...staleRates.map((r) => e.editorRate.delete({ editorId: userId, jobTypeId: r.jobTypeId }).commit()),
      ...rates.map((r) =>
        e.editorRate.put({ editorId: userId, jobTypeId: r.jobTypeId, ratePerPhotoCents: r.ratePerPhotoCents }).commit(),
      ),
      ...earlier.map((i) =>
        e.invitation
          .patch({ tokenHash: i.tokenHash })
          .set({ status: 'revoked' })
          .where(({ status }, { eq }) => eq(status, 'pending'))
          .commit(),
      ),
      e.invitation
        .create({
          tokenHash,
          email: input.email,
          displayName: input.displayName,
          invitedBy: input.invitedBy,
          userId,
          status: 'pending',
          expiresAt: expiresAtSeconds,
        })
        .commit(),
    ]);
  } catch (error) {
    if (lostRace(error)) {
      throw new Conflict('This invitation changed while it was being sent. Please try again.');
    }
    throw error;
  }
  return { token, tokenHash, expiresAt: new Date(expiresAtSeconds * 1000), user, rates };
};

/** An invitation whose email could not be sent: its link was never seen, so it can never be used. */
export const revokeInvitation = async (tokenHash: string) => {
  await writers().invitation.patch({ tokenHash }).set({ status: 'revoked' }).go();
};

/**
 * Invites an editor: the records first, then the email. When SES refuses, the invitation is
 * revoked (its link was never delivered) and the admin is told to send it again; the invited
 * editor and their rates stay, and the next invitation reuses them.
 */
export const inviteEditor = async (input: Parameters<typeof createInvitation>[0]) => {
  const invitation = await createInvitation(input);
  try {
    await sendEmail({
      to: invitation.user.email,
      ...invitationEmail({
        displayName: invitation.user.displayName,
        email: invitation.user.email,
        token: invitation.token,
        rates: invitation.rates,
        expiresAt: invitation.expiresAt,
        siteUrl: config().SITE_URL,
      }),
    });
  } catch (error) {
    logger.error('invitation email not sent', { error: error as Error });
    await revokeInvitation(invitation.tokenHash);
    throw new HttpError(
      502,
      'EMAIL_NOT_SENT',
      'The invitation email could not be sent, so the invitation was cancelled. Please try again.',
    );
  }
  return {
    user: {
      id: invitation.user.userId,
      email: invitation.user.email,
      displayName: invitation.user.displayName,
      roles: invitation.user.roles,
      status: invitation.user.status,
      invitedAt: invitation.user.invitedAt,
    },
    rates: invitation.rates,
    expiresAt: invitation.expiresAt.toISOString(),
  };
};

const getInvitation = async (token: string) => {
  return getRecord<InvitationRecord>(models.invitation, { tokenHash: hashInvitationToken(token) });
};

type Refusal = { status: 400 | 409 | 410; message: string };

/** Why an invitation cannot be used by this email now, or null when it can. */
const refusalOf = (invitation: InvitationRecord | null, email: string): Refusal | null => {
  // Unknown token and wrong email read alike, so a guess learns nothing.
  if (!invitation || invitation.email !== email) return { status: 400, message: invitationMessages.invalid };
  if (invitation.status === 'accepted') return { status: 409, message: 'This invitation has already been used' };
  if (invitation.status === 'revoked') return { status: 410, message: invitationMessages.noLongerValid };
  if (invitation.expiresAt <= nowSeconds()) return { status: 410, message: invitationMessages.invalid };
  return null;
};

const refuse = ({ status, message }: Refusal): never => {
  if (status === 409) throw new Conflict(message);
  if (status === 410) throw new HttpError(410, 'GONE', message);
  throw new BadRequest(message, undefined, 'INVALID_INVITATION');
};

const offeredRates = async (editorId: string) =>
  (await withJobTypeNames(await ratesOf(editorId))).map(({ jobTypeName, ratePerPhotoCents }) => ({
    jobTypeName,
    ratePerPhotoCents,
  }));

const invalidView: InvitationVerificationView = { valid: false, user: null, rates: [], expiresAt: null };

/** What the invitation page shows: who is invited and at which rates, or that the link is not valid. */
export const verifyInvitation = async ({
  email,
  token,
}: {
  email: string;
  token: string;
}): Promise<InvitationVerificationView> => {
  const invitation = await getInvitation(token);
  if (!invitation || refusalOf(invitation, email)) return invalidView;
  return {
    valid: true,
    user: { email: invitation.email, displayName: invitation.displayName },
    rates: await offeredRates(invitation.userId),
    expiresAt: new Date(invitation.expiresAt * 1000).toISOString(),
  };
};

const unverifiedSignIn = () =>
  new BadRequest('The sign-in for this sign-up could not be verified', undefined, 'INVALID_ID_TOKEN');

/**
 * The invitation goes to whoever reads that mailbox: the Firebase account must have the same
 * email. The account's own ID token proves it, checked with the project id alone (no Firebase
 * Admin, no service account, no call to Firebase on the request path). This check must happen
 * before the invitation is consumed, so it cannot wait for a worker; a sign-up without a token
 * is refused (the browser always sends one).
 */
const assertAccountHasEmail = async (uid: string, email: string, idToken?: string) => {
  if (!idToken) throw unverifiedSignIn();
  const claims = await verifyIdToken(idToken).catch(() => {
    throw unverifiedSignIn();
  });
  if (claims.sub !== uid) throw new Forbidden('This sign-in belongs to another account');
  if (String(claims.email ?? '').toLowerCase() !== email) {
    throw new Forbidden('This account does not have the email address the invitation was sent to');
  }
};

/**
 * Accepts an invitation for the Firebase account `uid` (whose email must be the invited one):
 * the uid's user record becomes a verified editor with the offered rates (a new record, or an
 * existing one such as a photographer's gaining the role), the placeholder goes, and the
 * invitation is consumed by a condition on its status in the same transaction, so one token
 * signs up once however many requests race.
 */
export const acceptInvitation = async ({
  email,
  token,
  uid,
  idToken,
}: {
  email: string;
  token: string;
  uid: string;
  idToken?: string | undefined;
}) => {
  for (let attempt = 1; ; attempt++) {
    const invitation = await getInvitation(token);
    const refusal = refusalOf(invitation, email);
    if (refusal || !invitation) return refuse(refusal ?? { status: 400, message: invitationMessages.invalid });
    if (attempt === 1) await assertAccountHasEmail(uid, email, idToken);
    const placeholder = await getUser(invitation.userId);
    if (!placeholder) {
      // Gone because a simultaneous request just accepted this invitation: say it was used.
      const now = refusalOf(await getInvitation(token), email);
      return refuse(now ?? { status: 410, message: invitationMessages.noLongerValid });
    }
    const rates = await ratesOf(invitation.userId);
    const existing = await getUser(uid);
    const otherAccount = (await usersWithEmail(invitation.email)).find(
      (u) => u.userId !== uid && !isPlaceholderUserId(u.userId) && !u.deletedAt,
    );
    if (otherAccount) throw emailTaken();
    const acceptedAt = new Date().toISOString();

    try {
      await commitAll((e) => [
        e.invitation
          .patch({ tokenHash: invitation.tokenHash })
          .set({ status: 'accepted', acceptedAt })
          .where(({ status, expiresAt }, { eq, gt }) => `${eq(status, 'pending')} AND ${gt(expiresAt, nowSeconds())}`)
          .commit(),
        existing
          ? e.user
              .patch({ userId: uid })
              .set({
                roles: [...new Set<Role>([...existing.roles, 'editor'])],
                isEditor: 'editor',
                ...(existing.status === 'invited' ? { status: 'verified' as const } : {}),
              })
              // The roles read above are the roles replaced: a concurrent change retries.
              .where(({ updatedAt }, { eq }) => eq(updatedAt, existing.updatedAt))
              .commit()
          : e.user
              .create({
                userId: uid,
                email: invitation.email,
                displayName: placeholder.displayName ?? invitation.displayName,
                roles: ['editor'],
                isEditor: 'editor',
                status: 'verified',
                invitedAt: (placeholder as { invitedAt?: string }).invitedAt ?? invitation.createdAt,
              })
              .commit(),
        // The email moves from the placeholder to the account in the same write.
        claimEmail(e, invitation.email, uid, { from: invitation.userId }),
        ...rates.flatMap((r) => [
          e.editorRate.put({ editorId: uid, jobTypeId: r.jobTypeId, ratePerPhotoCents: r.ratePerPhotoCents }).commit(),
          e.editorRate.delete({ editorId: invitation.userId, jobTypeId: r.jobTypeId }).commit(),
        ]),
        e.user.delete({ userId: invitation.userId }).commit(),
        // The admin list's totals: the placeholder leaves, the account arrives or gains the role.
        ...userTotalChanges(e, [
          [placeholder, null],
          [
            existing,
            {
              userId: uid,
              roles: existing ? [...new Set<Role>([...existing.roles, 'editor'])] : ['editor'],
              status: existing && existing.status !== 'invited' ? existing.status : 'verified',
              isActive: existing?.isActive ?? true,
            },
          ],
        ]),
      ]);
    } catch (error) {
      if (!lostRace(error)) throw error;
      // Lost a race: the invitation was used meanwhile (refused above on the next read), or the
      // uid's record changed (its first sign-in created it); read again and retry once.
      if (attempt >= 2) {
        const now = refusalOf(await getInvitation(token), email);
        refuse(now ?? { status: 409, message: 'This invitation is being accepted. Please try again.' });
      }
      continue;
    }
    return (await getUser(uid))!;
  }
};
