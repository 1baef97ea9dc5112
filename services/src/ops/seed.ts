import type { Role } from '@marketplace/events/roles';
import { ensureFirebaseAccount } from '../adapters/firebase-admin';
import { marketplace } from '../data/entities';
import { ensureJobType } from '../data/job-types';
import { createUserOnce, getUser, setRoles } from '../data/users';

/**
 * The marketplace's starting data: the five services of the product (stable ids, so running the
 * seed again adds what is missing and keeps an admin's changes) and, for local use, one demo account per role.
 */
export const starterJobTypes = [
  {
    jobTypeId: 'basic-enhancement',
    name: 'Basic Enhancement',
    description: 'Exposure, colour and white balance correction, straightened verticals.',
    pricePerPhotoCents: 500,
    defaultEditorPriceCents: 150,
  },
  {
    jobTypeId: 'hdr',
    name: 'HDR',
    description: 'Bracketed exposures blended into one bright, natural image.',
    pricePerPhotoCents: 800,
    defaultEditorPriceCents: 250,
  },
  {
    jobTypeId: 'virtual-staging',
    name: 'Virtual Staging',
    description: 'Empty rooms furnished and decorated to help buyers picture the space.',
    pricePerPhotoCents: 2500,
    defaultEditorPriceCents: 1000,
  },
  {
    jobTypeId: 'sky-replacement',
    name: 'Sky Replacement',
    description: 'Grey or blown-out skies replaced with a clear blue sky.',
    pricePerPhotoCents: 1000,
    defaultEditorPriceCents: 300,
  },
  {
    jobTypeId: 'object-removal',
    name: 'Object Removal',
    description: 'Cars, bins, cables and clutter removed from the shot.',
    pricePerPhotoCents: 1200,
    defaultEditorPriceCents: 400,
  },
] as const;

export const DEMO_PASSWORD = 'demo-password';

export const demoAccounts: { email: string; displayName: string; roles: Role[] }[] = [
  { email: 'admin@example.com', displayName: 'Avery Admin', roles: ['admin'] },
  { email: 'editor@example.com', displayName: 'Eden Editor', roles: ['editor'] },
  { email: 'photographer@example.com', displayName: 'Parker Photographer', roles: ['photographer'] },
];

export const seedJobTypes = async () => {
  for (const jobType of starterJobTypes) await ensureJobType({ ...jobType, isActive: true });
};

/** Demo accounts exist in the identity provider and in the table with their roles; the editor has rates. */
export const seedDemoAccounts = async () => {
  for (const account of demoAccounts) {
    const identity = await ensureFirebaseAccount({ ...account, password: DEMO_PASSWORD });
    const existing = await getUser(identity.uid);
    if (!existing) {
      await createUserOnce({
        userId: identity.uid,
        email: account.email,
        displayName: account.displayName,
        roles: account.roles,
        status: 'verified',
      });
    } else if (account.roles.some((role) => !existing.roles.includes(role))) {
      await setRoles(identity.uid, [...existing.roles, ...account.roles]);
    }
    if (account.roles.includes('editor')) {
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
  }
};
