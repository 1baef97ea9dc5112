import type { SQSClient } from '@aws-sdk/client-sqs';
import type { QueueName } from '@marketplace/events/order-events';
import { ulid } from 'ulid';
import { config } from '../config';

let client: SQSClient | undefined;

/** Loaded on the first send: the download routes publish only when no zip is ready yet. */
const sqsSdk = () => import('@aws-sdk/client-sqs');

const sqs = async () => {
  const { SQSClient } = await sqsSdk();
  const { AWS_REGION, SQS_ENDPOINT } = config();
  client ??= new SQSClient({ region: AWS_REGION, ...(SQS_ENDPOINT ? { endpoint: SQS_ENDPOINT } : {}) });
  return client;
};

const SQS_BATCH_LIMIT = 10;

/**
 * Sends messages to a logical queue (its URL comes from configuration), in SQS's batches of ten;
 * with `delaySeconds`, none is received sooner (SQS's DelaySeconds, at most 900).
 */
export const publish = async (
  queue: QueueName,
  messages: readonly unknown[],
  { delaySeconds }: { delaySeconds?: number } = {},
) => {
  const queueUrl = config().QUEUE_URLS[queue];
  if (!queueUrl) throw new Error(`No URL configured for queue ${queue}`);
  const [queueClient, { SendMessageBatchCommand }] = await Promise.all([sqs(), sqsSdk()]);
  for (let start = 0; start < messages.length; start += SQS_BATCH_LIMIT) {
    const entries = messages.slice(start, start + SQS_BATCH_LIMIT).map((message) => ({
      Id: ulid(),
      MessageBody: JSON.stringify(message),
      ...(delaySeconds ? { DelaySeconds: delaySeconds } : {}),
    }));
    const result = await queueClient.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
    if (result.Failed?.length) {
      throw new Error(`${result.Failed.length} message(s) were not accepted by queue ${queue}`);
    }
  }
};
