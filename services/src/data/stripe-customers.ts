import { createStripeCustomer } from '../adapters/stripe-cards';
import { NotFound } from '../http/errors';
import { isConditionFailure } from './conditional-write';
import { writers } from './direct-writes';
import { getUser, type UserRecord } from './users';

/**
 * One Stripe Customer per photographer, whatever the race. The customer is made with a key of the
 * user's (two first payments at once get the same customer from Stripe), and its id is written on
 * the user record only where none is yet: the write that loses reads the winner's id and uses it.
 */
export const ensureStripeCustomer = async (user: Pick<UserRecord, 'userId' | 'email' | 'displayName'>) => {
  const current = await getUser(user.userId, { consistent: true });
  if (!current) throw new NotFound('User not found');
  if (current.stripeCustomerId) return current.stripeCustomerId;
  const customerId = await createStripeCustomer({
    userId: user.userId,
    email: current.email,
    ...(current.displayName ? { displayName: current.displayName } : {}),
  });
  try {
    await writers()
      .user.patch({ userId: user.userId })
      .set({ stripeCustomerId: customerId })
      .where(({ stripeCustomerId }, { notExists }) => notExists(stripeCustomerId))
      .go();
    return customerId;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const winner = (await getUser(user.userId, { consistent: true }))?.stripeCustomerId;
    if (!winner) throw error;
    return winner;
  }
};

/** The caller's customer as recorded, or undefined before any card was saved (nothing is made by reading). */
export const recordedStripeCustomer = async (userId: string) =>
  (await getUser(userId, { consistent: true }))?.stripeCustomerId;
