/**
 * Runs async tasks at most `concurrency` at a time, in the order they were queued: reading
 * a hundred dropped files all at once would hold every one of them in memory together.
 */
export function taskQueue(concurrency: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running < concurrency) running += 1;
    // A finishing task hands its slot straight to the next in line, so the count never overshoots.
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
