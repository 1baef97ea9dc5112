import { checkCounters } from './check-counters';
import { repairUserEmails } from './duplicate-users';
import { backfillListIndexes } from './list-indexes';
import { dollarsToCents, recordPayout } from './payouts';
import { grantRole, OpsError, revokeRole } from './roles';
import { seedDemoAccounts, seedJobTypes } from './seed';

/**
 * The admin's tools outside the web app: `npm run ops -- <command>`.
 * Local by default (the stack of `npm run dev` must be running); against AWS when the environment
 * names a table and a region (TABLE_NAME and AWS_REGION, with AWS credentials, and
 * GOOGLE_APPLICATION_CREDENTIALS plus FIREBASE_PROJECT_ID for the identity provider).
 */
const usage = `Usage: npm run ops -- <command>
  grant-role <email> <role>    give a user a role (admin, editor or photographer)
  revoke-role <email> <role>   take a role away
  seed                         create the job types (and, locally, the demo accounts)
  check-counters [--repair]    count every counter again from its items and report (or mend)
                               each difference; repair on a quiet table
  merge-duplicate-users        merge account records that share an email (tables from before
                               the email guard) and give each account its email claim
  backfill-list-indexes        give users and feedback written before the admins, status and
                               feedback-type indexes their keys (once after deploying them)
  record-payout <email> <dollars> [payout id]
                               pay an editor from what is pending (the same id is booked once)`;

const againstAws = Boolean(process.env.TABLE_NAME && process.env.AWS_REGION);

if (!againstAws) {
  const { devPorts, stackEnvironment } = await import('../../local/stack');
  for (const [key, value] of Object.entries(stackEnvironment(devPorts))) process.env[key] ??= value;
}

const [command, ...args] = process.argv.slice(2);

const run = async () => {
  switch (command) {
    case 'grant-role':
    case 'revoke-role': {
      const [email, role] = args;
      if (!email || !role) throw new OpsError(usage);
      const { user, changed } = await (command === 'grant-role' ? grantRole(email, role) : revokeRole(email, role));
      console.log(
        `${user.email}: roles ${user.roles.length ? user.roles.join(', ') : 'none'}${changed ? '' : ' (unchanged)'}`,
      );
      return;
    }
    case 'seed':
      await seedJobTypes();
      if (!againstAws) await seedDemoAccounts();
      console.log(againstAws ? 'Job types seeded.' : 'Job types and demo accounts seeded.');
      return;
    case 'check-counters': {
      const repair = args.includes('--repair');
      const differences = await checkCounters({ repair });
      for (const d of differences) {
        console.log(`${d.scope} ${d.name}: stored ${d.stored ?? 'none'}, counted ${d.counted}  (${d.family})`);
      }
      if (!differences.length) console.log('Every counter matches its items.');
      else console.log(`${differences.length} counters differ${repair ? '; each is now set to its count.' : '.'}`);
      if (differences.length && !repair) process.exitCode = 1;
      return;
    }
    case 'merge-duplicate-users': {
      const merged = await repairUserEmails({ force: true });
      for (const m of merged) {
        console.log(
          `${m.email}: kept ${m.kept}; removed ${m.removed.join(', ') || 'none'}; kept as deleted (they have orders) ${m.retired.join(', ') || 'none'}`,
        );
      }
      console.log(merged.length ? `${merged.length} emails merged.` : 'No email has more than one account.');
      return;
    }
    case 'backfill-list-indexes': {
      const report = await backfillListIndexes({ force: true });
      console.log(`Index keys written for ${report?.users ?? 0} users and ${report?.feedback ?? 0} feedback reports.`);
      return;
    }
    case 'record-payout': {
      const [email, dollars, payoutId] = args;
      if (!email || !dollars) throw new OpsError(usage);
      const amountCents = dollarsToCents(dollars);
      const result = await recordPayout({ email, amountCents, ...(payoutId ? { payoutId } : {}) });
      console.log(
        `${result.editor.email}: payout ${result.payoutId} of ${(amountCents / 100).toFixed(2)} USD${result.recorded ? ' recorded' : ' was already recorded'}`,
      );
      return;
    }
    default:
      throw new OpsError(usage);
  }
};

try {
  console.log(`(${againstAws ? `AWS table ${process.env.TABLE_NAME} in ${process.env.AWS_REGION}` : 'local stack'})`);
  await run();
} catch (error) {
  console.error(error instanceof OpsError ? error.message : `Failed: ${(error as Error)?.message ?? error}`);
  process.exitCode = 1;
}
