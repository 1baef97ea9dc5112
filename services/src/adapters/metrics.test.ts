import { beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from './logger';
import { METRICS_NAMESPACE, recordMetrics } from './metrics';

/** The JSON lines the logger writes while `run` runs. */
const linesWrittenBy = (run: () => void) => {
  const lines: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    run();
  } finally {
    write.mockRestore();
  }
  return lines.flatMap((chunk) => chunk.split('\n')).filter((line) => line.trim().startsWith('{'));
};

describe('metrics in the embedded metric format', () => {
  beforeEach(() => logger.setLogLevel('INFO'));

  it('are one JSON line whose _aws member names each metric, its unit and the namespace, with the values at the top level', () => {
    const before = Date.now();
    const [line, ...rest] = linesWrittenBy(() => recordMetrics({ OrdersPaid: 1, Revenue: 4500 }));
    expect(rest).toEqual([]);
    const document = JSON.parse(line!);
    expect(document).toMatchObject({ OrdersPaid: 1, Revenue: 4500, level: 'INFO', service: 'marketplace' });
    expect(document._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: METRICS_NAMESPACE,
        Dimensions: [[]],
        Metrics: [
          { Name: 'OrdersPaid', Unit: 'Count' },
          { Name: 'Revenue', Unit: 'None' },
        ],
      },
    ]);
    // CloudWatch drops a document whose timestamp is not milliseconds since the epoch near now.
    expect(document._aws.Timestamp).toBeGreaterThanOrEqual(before);
    expect(document._aws.Timestamp).toBeLessThanOrEqual(Date.now());
  });

  it('give a fractional value as it is (zip build seconds)', () => {
    const [line] = linesWrittenBy(() => recordMetrics({ ZipBuildSeconds: 12.345 }));
    const document = JSON.parse(line!);
    expect(document.ZipBuildSeconds).toBe(12.345);
    expect(document._aws.CloudWatchMetrics[0].Metrics).toEqual([{ Name: 'ZipBuildSeconds', Unit: 'Seconds' }]);
  });

  it('write nothing for no values, and nothing when the log level is above INFO', () => {
    expect(linesWrittenBy(() => recordMetrics({}))).toEqual([]);
    logger.setLogLevel('WARN');
    expect(linesWrittenBy(() => recordMetrics({ StripeErrors: 1 }))).toEqual([]);
  });
});
