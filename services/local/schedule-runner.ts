import type { ScheduleDefinition } from '../src/workers';

/**
 * EventBridge schedules on one machine: each scheduled worker runs on an interval of its own, one
 * run at a time (a run still going when the next is due is not started twice). The handler gets
 * what EventBridge sends: a Scheduled Event with the time it fired.
 */
type ScheduledHandler = (event: { source: string; 'detail-type': string; time: string; detail: object }) => unknown;

export interface ScheduleRunnerOptions {
  schedules: readonly ScheduleDefinition[];
  loadHandler: (schedule: ScheduleDefinition) => Promise<ScheduledHandler>;
  log?: (line: string) => void;
  /** For tests and the benches: every schedule at this interval instead of its own. */
  intervalMs?: number;
}

export const startScheduleRunner = ({
  schedules,
  loadHandler,
  log = console.log,
  intervalMs,
}: ScheduleRunnerOptions) => {
  const running = new Map<string, Promise<void>>();
  const runOnce = (schedule: ScheduleDefinition) => {
    if (running.has(schedule.name)) return running.get(schedule.name)!;
    const run = (async () => {
      try {
        const handler = await loadHandler(schedule);
        await handler({
          source: 'aws.scheduler',
          'detail-type': 'Scheduled Event',
          time: new Date().toISOString(),
          detail: {},
        });
      } catch (error) {
        log(`scheduled worker ${schedule.handler} failed: ${(error as Error)?.message ?? error}`);
      } finally {
        running.delete(schedule.name);
      }
    })();
    running.set(schedule.name, run);
    return run;
  };
  const timers = schedules.map((schedule) => {
    const timer = setInterval(() => void runOnce(schedule), intervalMs ?? schedule.everyMinutes * 60_000);
    timer.unref();
    return timer;
  });
  return {
    /** Runs a schedule now (as its timer would), or joins the run under way. */
    runNow: (name: string) => {
      const schedule = schedules.find((s) => s.name === name);
      if (!schedule) throw new Error(`No schedule named ${name}`);
      return runOnce(schedule);
    },
    stop: async () => {
      for (const timer of timers) clearInterval(timer);
      await Promise.all(running.values());
    },
  };
};
