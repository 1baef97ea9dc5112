import { checkCounters } from './check-counters';
import { checkTransfers, formatTransferCheck } from './check-transfers';
import { localDeployment } from './deployment';
import { repairUserEmails } from './duplicate-users';
import { formatRelease, releaseEarningsNow } from './earnings';
import { rebuildInsights } from './insights';
import { backfillListIndexes } from './list-indexes';
import { orderNotifications, resendNotification } from './notifications';
import { dollarsToCents, recordPayout } from './payouts';
import { sqsClient } from './queues';
import { grantRole, OpsError, revokeRole } from './roles';
import { seedDemoAccounts, seedJobTypes } from './seed';
import {
  collectStatus,
  DEFAULT_MAX_LAG_SECONDS,
  formatRedrive,
  formatStatus,
  problemsOf,
  redriveQueue,
} from './status';

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
                               pay an editor from what is pending (the same id is booked once)
  status [--no-counters] [--max-lag <seconds>] [--json]
                               each queue's depth and dead letters, the outbox's lag, each
                               worker's last error and the counter check; exit code 1 when a
                               dead letter, a lag over the limit (60 s) or a counter difference
                               is found
  redrive <queue>              move every dead letter of a worker queue back to it (after the
                               fix); docs/operations.md says when
  notifications <order id>     the emails of an order's steps and whether each went out
  resend-notification <order id> <event type>
                               send the email of that step again (order_paid, order_claimed,
                               order_completed, order_assigned, revision_requested)
  rebuild-insights [--from <date>] [--to <date>]
                               count the admin's Insights again from the stored event log and
                               write each hour whole (by default every hour before this one);
                               run on a quiet table
  release-earnings [--as-of <ISO time>]
                               send every earning whose revision window has closed to its
                               editor's Stripe account now (as the 15-minute schedule does), or
                               as if it were that time
  check-transfers              compare every transferred earning with Stripe's transfers (amount,
                               account, reversal) and list each difference; exit code 1 on any
  purge-deleted-accounts [--as-of <ISO time>]
                               remove the personal data of accounts their owners deleted more
                               than 30 days before (as the half-hourly schedule does), or as if it
                               were that time`;

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
    case 'status': {
      const lagAt = args.indexOf('--max-lag');
      const maxLagSeconds = lagAt >= 0 ? Number(args[lagAt + 1]) : DEFAULT_MAX_LAG_SECONDS;
      if (!(maxLagSeconds >= 0)) throw new OpsError(usage);
      const report = await collectStatus(await deployment(), { counters: !args.includes('--no-counters') });
      const problems = problemsOf(report, { maxLagSeconds });
      console.log(
        args.includes('--json') ? JSON.stringify({ ...report, problems }, null, 2) : formatStatus(report, problems),
      );
      if (problems.length) process.exitCode = 1;
      return;
    }
    case 'redrive': {
      const [queue] = args;
      if (!queue) throw new OpsError(usage);
      console.log(formatRedrive(await redriveQueue(await deployment(), queue)));
      return;
    }
    case 'notifications': {
      const [orderId] = args;
      if (!orderId) throw new OpsError(usage);
      const states = await orderNotifications(orderId);
      for (const n of states) {
        const state =
          n.mark === 'sent'
            ? `sent (SES accepted it; marked ${n.markedAt})`
            : n.mark === 'sending'
              ? 'being sent now'
              : 'not sent';
        console.log(`${n.eventType.padEnd(18)} ${n.occurredAt}  ${state}  (event ${n.eventId})`);
      }
      if (!states.length) console.log(`Order ${orderId} has no step that sends an email yet.`);
      return;
    }
    case 'resend-notification': {
      const [orderId, eventType] = args;
      if (!orderId || !eventType) throw new OpsError(usage);
      const resent = await resendNotification(orderId, eventType);
      console.log(
        `The ${resent.eventType} email of order ${orderId} (event ${resent.eventId}) is queued for the notification worker${resent.wasMarked ? '; its earlier mark was cleared' : ''}.`,
      );
      return;
    }
    case 'rebuild-insights': {
      const dateAfter = (flag: string) => {
        const at = args.indexOf(flag);
        if (at < 0) return undefined;
        const date = new Date(args[at + 1] ?? '');
        if (Number.isNaN(date.getTime())) throw new OpsError(usage);
        return date;
      };
      const from = dateAfter('--from');
      const to = dateAfter('--to');
      const rebuilt = await rebuildInsights({ ...(from ? { from } : {}), ...(to ? { to } : {}) });
      console.log(
        `Insights rebuilt from ${rebuilt.eventsCounted} events: ${rebuilt.hoursWritten} hours written, ${rebuilt.hoursRemoved} removed.`,
      );
      if (rebuilt.ordersMissing.length) {
        console.log(`Events of ${rebuilt.ordersMissing.length} orders the table no longer holds were left out.`);
      }
      return;
    }
    case 'release-earnings': {
      const at = args.indexOf('--as-of');
      const asOf = at >= 0 ? new Date(args[at + 1] ?? '') : new Date();
      if (Number.isNaN(asOf.getTime())) throw new OpsError(usage);
      console.log(formatRelease(asOf, await releaseEarningsNow(asOf)));
      return;
    }
    case 'purge-deleted-accounts': {
      const at = args.indexOf('--as-of');
      const asOf = at >= 0 ? new Date(args[at + 1] ?? '') : new Date();
      if (Number.isNaN(asOf.getTime())) throw new OpsError(usage);
      const { purgeDeletedAccountsNow } = await import('./account-purge');
      console.log(await purgeDeletedAccountsNow(asOf));
      return;
    }
    case 'check-transfers': {
      const report = await checkTransfers();
      console.log(formatTransferCheck(report));
      if (report.differences.length) process.exitCode = 1;
      return;
    }
    default:
      throw new OpsError(usage);
  }
};

/** The queues and their workers: the local stack's, or the deployed stack's (found through CloudFormation). */
const deployment = async () => {
  const sqs = sqsClient();
  if (!againstAws) return localDeployment(sqs);
  const { awsDeployment } = await import('./aws-deployment');
  return awsDeployment(sqs);
};

try {
  const where = `(${againstAws ? `AWS table ${process.env.TABLE_NAME} in ${process.env.AWS_REGION}` : 'local stack'})`;
  // Output asked for as JSON stays JSON alone on stdout.
  if (args.includes('--json')) console.error(where);
  else console.log(where);
  await run();
} catch (error) {
  console.error(error instanceof OpsError ? error.message : `Failed: ${(error as Error)?.message ?? error}`);
  process.exitCode = 1;
}
