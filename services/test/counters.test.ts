import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { editorScope, getOrder, readCounters } from '../src/data/orders';
import { recordEditorPayout } from '../src/data/payouts';
import { checkCounters } from '../src/ops/check-counters';
import { aCompletedOrder, anOrderInProgress, aPaidOrder } from './race-builders';
import { accountsMadeHere, anEditor, aPhotographer, as, db } from './support';

/**
 * Counters are moved by the writes they count; `check-counters` counts them again from the items.
 * Other files write beside this one, so each check compares the counters of this file's accounts.
 */
const ofThisFile = (scope: string) => accountsMadeHere.has(scope.slice(scope.indexOf('#') + 1));

describe('check-counters', () => {
  it('finds no difference after a whole order journey, and finds and repairs one put there on purpose', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    await aPaidOrder(photographer, { photoCount: 4 });
    await anOrderInProgress(photographer, editor);
    const completed = await aCompletedOrder(photographer, editor, 5);
    expect((await as(photographer).post(`/api/orders/${completed.orderId}/rate`, { rating: 9 })).status).toBe(200);
    await recordEditorPayout({ editorId: editor.uid, amountCents: 100 });

    expect(await checkCounters({ inScope: ofThisFile })).toEqual([]);

    // A counter that drifted (a write outside the code, a lost bug): found, then mended.
    await db()
      .counter.update({ scope: editorScope(editor.uid), name: 'completedOrders' })
      .add({ value: 3 })
      .go();
    const found = await checkCounters({ inScope: ofThisFile });
    expect(found).toEqual([
      expect.objectContaining({ scope: editorScope(editor.uid), name: 'completedOrders', stored: 4, counted: 1 }),
    ]);
    expect(await checkCounters({ inScope: ofThisFile, repair: true })).toHaveLength(1);
    expect((await readCounters(editorScope(editor.uid))).completedOrders).toBe(1);
    expect(await checkCounters({ inScope: ofThisFile })).toEqual([]);
  }, 60_000);

  it('finds no difference after a writer is killed between its writes and its caller tries again', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const orders = await Promise.all(Array.from({ length: 6 }, () => aPaidOrder(photographer, { photoCount: 2 })));
    const ids = orders.map((o) => o.orderId);

    // A worker process claims and completes the orders one transaction at a time and is killed
    // mid-way; the caller then runs the same work again from the start, as a retry would.
    const runWriter = (killAfterMs?: number) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', path.join(import.meta.dirname, 'counter-writer-process.ts'), editor.uid, ...ids],
          { env: process.env, stdio: ['ignore', 'pipe', 'inherit'] },
        );
        let written = 0;
        child.stdout?.on('data', (chunk: Buffer) => {
          written += chunk.toString().split('\n').filter(Boolean).length;
        });
        if (killAfterMs !== undefined) {
          // Killed once it has committed at least one write, wherever it is in the next one.
          const timer = setInterval(() => {
            if (written >= 2) {
              clearInterval(timer);
              setTimeout(() => child.kill('SIGKILL'), killAfterMs);
            }
          }, 5);
        }
        child.once('exit', (code) => resolve(code));
      });

    expect(await runWriter(15)).toBeNull();
    expect(await runWriter()).toBe(0);

    for (const orderId of ids) expect((await getOrder(orderId))?.status).toBe('completed');
    expect(await checkCounters({ inScope: ofThisFile })).toEqual([]);
    const counters = await readCounters(editorScope(editor.uid));
    expect(counters).toMatchObject({ activeOrders: 0, completedOrders: 6 });
  }, 120_000);
});
