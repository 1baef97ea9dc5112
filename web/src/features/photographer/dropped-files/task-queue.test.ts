import { describe, expect, it } from 'vitest';
import { taskQueue } from './task-queue';

describe('taskQueue', () => {
  it('runs at most the given number of tasks at once, in the order queued, and passes results and errors on', async () => {
    const run = taskQueue(2);
    let active = 0;
    let mostActive = 0;
    const started: number[] = [];
    const gates: (() => void)[] = [];
    const task = (n: number) => () =>
      new Promise<number>((resolve) => {
        started.push(n);
        active += 1;
        mostActive = Math.max(mostActive, active);
        gates.push(() => {
          active -= 1;
          resolve(n * 10);
        });
      });
    const results = [1, 2, 3, 4, 5].map((n) => run(task(n)));
    const failed = run(() => Promise.reject(new Error('unreadable'))).catch((error: Error) => error.message);
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    await settle();
    expect(started).toEqual([1, 2]);
    for (let opened = 0; opened < 5; opened++) {
      gates[opened]?.();
      await settle();
    }
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40, 50]);
    expect(await failed).toBe('unreadable');
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(mostActive).toBe(2);
    // The queue is free again after a failure.
    expect(await run(async () => 'next')).toBe('next');
  });
});
