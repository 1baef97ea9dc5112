import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { releaseEarning } from '../src/data/earning-release';
import { checkTransfers } from '../src/ops/check-transfers';
import { aCompletedOrder, afterWindow, atStripe, fundPlatform, giveStripeAccount } from './payout-support';
import { anEditor, aPhotographer, db, type TestAccount } from './support';

/**
 * `npm run ops -- check-transfers`: the table's transfers against Stripe's. Other files make
 * transfers beside this one, so each check looks at this file's orders.
 */
let photographer: TestAccount;
let editor: TestAccount;
let accountId: string;
const mine = new Set<string>();
const ofThisFile = (orderId: string) => mine.has(orderId);

const aTransferredEarning = async (rateCents: number) => {
  const { order, earning } = await aCompletedOrder(photographer, editor, { photoCount: 1, rateCents });
  mine.add(order.orderId);
  expect(await releaseEarning(earning, afterWindow(earning))).toBe('transferred');
  return order.orderId;
};

beforeAll(async () => {
  photographer = await aPhotographer();
  editor = await anEditor();
  accountId = await giveStripeAccount(editor, 'complete');
  await fundPlatform(50_000);
});

describe('check-transfers', () => {
  it('finds every transferred earning at Stripe as the table says', async () => {
    await aTransferredEarning(125);
    await aTransferredEarning(135);
    const { differences, earningsChecked } = await checkTransfers({ inScope: ofThisFile });
    expect(differences).toEqual([]);
    expect(earningsChecked).toBeGreaterThanOrEqual(2);
  });

  it('reports another amount, a transfer Stripe does not have, and one Stripe made that the table did not record', async () => {
    const wrongAmount = await aTransferredEarning(145);
    await db().earning.patch({ orderId: wrongAmount }).set({ transferAmountCents: 999 }).go();
    const missing = await aTransferredEarning(155);
    await db().earning.patch({ orderId: missing }).set({ transferId: 'tr_never_made' }).go();
    // A transfer of an earning that is still held (made at Stripe, never recorded).
    const { order: unrecorded } = await aCompletedOrder(photographer, editor, { photoCount: 1, rateCents: 165 });
    mine.add(unrecorded.orderId);
    await atStripe('/v1/transfers', {
      method: 'POST',
      form: {
        amount: '165',
        currency: 'usd',
        destination: accountId,
        transfer_group: unrecorded.orderId,
        'metadata[earningId]': unrecorded.orderId,
      },
    });

    const { differences } = await checkTransfers({ inScope: ofThisFile });
    expect(differences).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ orderId: wrongAmount, problem: 'Stripe transferred $1.45, the table says $9.99' }),
        expect.objectContaining({
          orderId: missing,
          problem: 'recorded as transferred, but Stripe has no such transfer',
        }),
        expect.objectContaining({
          orderId: unrecorded.orderId,
          problem: 'Stripe transferred $1.65 for it, but the table has it held',
        }),
      ]),
    );
    expect(differences).toHaveLength(3);

    // The command prints each difference and exits 1.
    const repoRoot = path.resolve(import.meta.dirname, '../..');
    const run = promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'services/src/ops/cli.ts'), 'check-transfers'],
      { cwd: repoRoot, env: process.env },
    );
    const failure = (await run.catch((error: unknown) => error)) as { code?: number; stdout?: string };
    expect(failure.code).toBe(1);
    expect(failure.stdout).toContain(`${wrongAmount}  `);
    expect(failure.stdout).toContain('Stripe transferred $1.45, the table says $9.99');
  }, 90_000);
});
