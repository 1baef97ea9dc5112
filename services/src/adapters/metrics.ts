import { logger } from './logger';

/**
 * The marketplace's own CloudWatch metrics, written as CloudWatch's embedded metric format (EMF)
 * through the logger every function already loads: one JSON log line whose `_aws` member tells
 * CloudWatch Logs which of its top-level keys are metrics, so a metric costs no API call, no
 * permission and no package of its own. The CDK app's alarms and dashboard read these names.
 */
export const METRICS_NAMESPACE = 'Marketplace';

/** Each metric and its CloudWatch unit. */
export const metricUnits = {
  /** One for each order moved to paid (the webhook and the browser's confirmation count it once). */
  OrdersPaid: 'Count',
  /** What those orders paid, in cents, like every amount of the marketplace. */
  Revenue: 'None',
  /** From the build's claim to the zip's record marked ready. */
  ZipBuildSeconds: 'Seconds',
  /** A thumbnail attempt that threw, or left a placeholder where the file should have had a picture. */
  ThumbnailFailures: 'Count',
  /** A claim answered 409: the order was taken (or cancelled) first. */
  ClaimConflicts: 'Count',
  /** A call to Stripe that failed on Stripe's side or gave an answer we cannot use. */
  StripeErrors: 'Count',
} as const;

export type MetricName = keyof typeof metricUnits;

/**
 * Records metric values, without dimensions (one series per name for the whole marketplace).
 * Written at INFO: a LOG_LEVEL above INFO drops them with the other INFO lines.
 */
export const recordMetrics = (values: Partial<Record<MetricName, number>>) => {
  const names = Object.keys(values) as MetricName[];
  if (names.length === 0) return;
  logger.info('metrics', {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [[]],
          Metrics: names.map((name) => ({ Name: name, Unit: metricUnits[name] })),
        },
      ],
    },
    ...values,
  });
};
