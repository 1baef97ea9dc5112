import type { Role } from '@marketplace/events/roles';
import { ensureFirebaseAccount, firebaseAuth } from '../adapters/firebase-admin';
import { ensureAddOn } from '../data/add-ons';
import { marketplace } from '../data/entities';
import { ensureJobType } from '../data/job-types';
import { createUserOnce, emailOwner, getUser, isPlaceholderUserId, listAllUsers, setRoles } from '../data/users';
import { startCountersOnce } from './check-counters';
import { repairUserEmails } from './duplicate-users';
import { rebuildInsightsOnce } from './insights';
import { backfillListIndexes } from './list-indexes';

/**
 * The marketplace's starting data: the five services of the product (stable ids, so running the
 * seed again adds what is missing and keeps an admin's changes), each with its Express and Rush
 * surcharges per photo (decision 0110), and, for local use, one demo account per role.
 */
export const starterJobTypes = [
  {
    jobTypeId: 'basic-enhancement',
    name: 'Basic Enhancement',
    description: 'Exposure, colour and white balance correction, straightened verticals.',
    pricePerPhotoCents: 500,
    defaultEditorPriceCents: 150,
    tierSurchargeCents: { express: 200, rush: 400 },
  },
  {
    jobTypeId: 'hdr',
    name: 'HDR',
    description: 'Bracketed exposures blended into one bright, natural image.',
    pricePerPhotoCents: 800,
    defaultEditorPriceCents: 250,
    tierSurchargeCents: { express: 300, rush: 600 },
  },
  {
    jobTypeId: 'virtual-staging',
    name: 'Virtual Staging',
    description: 'Empty rooms furnished and decorated to help buyers picture the space.',
    pricePerPhotoCents: 2500,
    defaultEditorPriceCents: 1000,
    tierSurchargeCents: { express: 800, rush: 1500 },
  },
  {
    jobTypeId: 'sky-replacement',
    name: 'Sky Replacement',
    description: 'Grey or blown-out skies replaced with a clear blue sky.',
    pricePerPhotoCents: 1000,
    defaultEditorPriceCents: 300,
    tierSurchargeCents: { express: 300, rush: 600 },
  },
  {
    jobTypeId: 'object-removal',
    name: 'Object Removal',
    description: 'Cars, bins, cables and clutter removed from the shot.',
    pricePerPhotoCents: 1200,
    defaultEditorPriceCents: 400,
    tierSurchargeCents: { express: 400, rush: 800 },
  },
] as const;

/**
 * The add-ons of the product (decision 0109): services priced per photo, ticked on chosen photos.
 * Editors are paid about 60% of each.
 */
export const starterAddOns = [
  {
    addOnId: 'virtual-staging',
    name: 'Virtual staging',
    description: 'The empty room furnished and decorated.',
    pricePerPhotoCents: 2400,
    editorRatePerPhotoCents: 1450,
    sortOrder: 10,
  },
  {
    addOnId: 'object-removal',
    name: 'Object removal',
    description: 'Cars, bins, cables and clutter taken out of the photo.',
    pricePerPhotoCents: 400,
    editorRatePerPhotoCents: 240,
    sortOrder: 20,
  },
  {
    addOnId: 'sky-replacement',
    name: 'Sky replacement',
    description: 'A grey or blown-out sky replaced with a clear blue one.',
    pricePerPhotoCents: 200,
    editorRatePerPhotoCents: 120,
    sortOrder: 30,
  },
  {
    addOnId: 'day-to-dusk',
    name: 'Day-to-dusk',
    description: 'A daytime exterior turned into a twilight shot with warm windows.',
    pricePerPhotoCents: 600,
    editorRatePerPhotoCents: 360,
    sortOrder: 40,
  },
] as const;

export const DEMO_PASSWORD = 'demo-password';

export const demoAccounts: { email: string; displayName: string; roles: Role[] }[] = [
  { email: 'admin@example.com', displayName: 'Avery Admin', roles: ['admin'] },
  { email: 'editor@example.com', displayName: 'Eden Editor', roles: ['editor'] },
  { email: 'photographer@example.com', displayName: 'Parker Photographer', roles: ['photographer'] },
];

/** The job types and, beside them, the add-ons; an existing one (an admin's prices) is left alone. */
export const seedJobTypes = async () => {
  for (const jobType of starterJobTypes) await ensureJobType({ ...jobType, isActive: true });
  for (const addOn of starterAddOns) await ensureAddOn({ ...addOn, isActive: true });
};

/**
 * An account in the identity provider and in the table with its roles (an editor with the
 * default rates), reconciled by email: where the table already has the account (an identity
 * emulator that lost its accounts, or was reset on its own), the identity is made again under that
 * account's id, so the person signs in to the same record and orders as before; never a second
 * record.
 */
export const seedAccount = async (account: { email: string; displayName: string; roles: Role[]; password: string }) => {
  const owner = await emailOwner(account.email);
  const { roles, ...identityFields } = account;
  const identity = await ensureFirebaseAccount({
    ...identityFields,
    ...(owner && !isPlaceholderUserId(owner) ? { uid: owner } : {}),
  });
  const existing = await getUser(identity.uid);
  if (!existing) {
    await createUserOnce({
      userId: identity.uid,
      email: account.email,
      displayName: account.displayName,
      roles,
      status: 'verified',
    });
  } else if (roles.some((role) => !existing.roles.includes(role))) {
    await setRoles(identity.uid, [...existing.roles, ...roles]);
  }
  if (roles.includes('editor')) {
    for (const jobType of starterJobTypes) {
      await marketplace()
        .entities.editorRate.upsert({
          editorId: identity.uid,
          jobTypeId: jobType.jobTypeId,
          ratePerPhotoCents: jobType.defaultEditorPriceCents,
        })
        .go();
    }
  }
  return identity.uid;
};

/**
 * Local only: the auth emulator saves its accounts when it stops in order; a crash (`kill -9`, a
 * power cut) loses those made since it last started, while the table keeps their records and
 * orders. Each such account is made again under its own id, with the demo password, so the person
 * signs in to the same record (and can change the password). Reads every user: a local start
 * only, never a request.
 */
export const restoreLostIdentities = async () => {
  const auth = await firebaseAuth();
  const accounts = (await listAllUsers()).filter((u) => !isPlaceholderUserId(u.userId) && !u.deletedAt);
  const restored: string[] = [];
  for (let i = 0; i < accounts.length; i += 100) {
    const batch = accounts.slice(i, i + 100);
    const { notFound } = await auth.getUsers(batch.map((u) => ({ uid: u.userId })));
    const missing = new Set(notFound.map((id) => (id as { uid: string }).uid));
    for (const user of batch.filter((u) => missing.has(u.userId))) {
      try {
        await auth.createUser({
          uid: user.userId,
          email: user.email,
          password: DEMO_PASSWORD,
          emailVerified: true,
          ...(user.displayName ? { displayName: user.displayName } : {}),
        });
        restored.push(user.email);
      } catch (error) {
        // Another identity already has the email (a record the identity provider never had).
        if ((error as { code?: string }).code !== 'auth/email-already-exists') throw error;
      }
    }
  }
  return restored;
};

/**
 * The demo accounts, after giving an older table's records the list indexes' keys, counting its
 * Insights from its event log, merging the duplicate records it holds and restoring lost sign-ins.
 */
export const seedDemoAccounts = async () => {
  const backfilled = await backfillListIndexes();
  if (backfilled && backfilled.users + backfilled.feedback > 0) {
    console.log(
      `Wrote the admins, status and feedback-type index keys of ${backfilled.users} users and ${backfilled.feedback} feedback reports written before those indexes.`,
    );
  }
  const rolledUp = await rebuildInsightsOnce();
  if (rolledUp?.eventsCounted) {
    console.log(
      `Counted the Insights of ${rolledUp.eventsCounted} order events written before the rollups (${rolledUp.hoursWritten} hours).`,
    );
  }
  for (const m of await repairUserEmails()) {
    console.log(
      `Merged ${m.retired.length + m.removed.length + 1} accounts of ${m.email} into ${m.kept}` +
        (m.retired.length ? ` (${m.retired.length} with orders kept as deleted accounts)` : ''),
    );
  }
  const restored = await restoreLostIdentities();
  if (restored.length) {
    console.log(
      `Restored the sign-in of ${restored.length} account(s) the auth emulator lost in a crash, with the password ${DEMO_PASSWORD}: ${restored.join(', ')}`,
    );
  }
  for (const account of demoAccounts) await seedAccount({ ...account, password: DEMO_PASSWORD });
  const started = await startCountersOnce();
  if (started.length) console.log(`Counted ${started.length} totals this table did not keep yet (once per table).`);
};
