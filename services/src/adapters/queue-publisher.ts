import type { QueueName } from '@marketplace/events/order-events';
import { ulid } from 'ulid';
import { config } from '../config';
import { awsJsonHeaders, awsService, perConfiguration, regionalHost } from './aws-requests';

interface BatchEntry {
  Id: string;
  MessageBody: string;
  DelaySeconds?: number;
}

/** What of SQS's answer we read: the entries it did not accept (a batch is accepted entry by entry). */
interface SendMessageBatchResult {
  Failed?: { Id: string; Code: string; Message?: string }[];
}

/**
 * SQS's SendMessageBatch over its JSON protocol, signed with aws-requests.ts rather than sent
 * through the SQS client, which the download routes would otherwise load on every cold start.
 * SQS_ENDPOINT is the local queue runner; the region's SQS otherwise.
 */
const sendMessageBatch = perConfiguration(({ AWS_REGION, SQS_ENDPOINT }) => {
  const sqs = awsService({ name: 'SQS', signingName: 'sqs', region: AWS_REGION });
  const url = SQS_ENDPOINT ?? `https://${regionalHost('sqs', AWS_REGION)}`;
  return (input: { QueueUrl: string; Entries: BatchEntry[] }) =>
    sqs.sendJson<SendMessageBatchResult>('SendMessageBatch', {
      url,
      headers: awsJsonHeaders('1.0', 'AmazonSQS.SendMessageBatch'),
      input,
    });
});

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
  for (let start = 0; start < messages.length; start += SQS_BATCH_LIMIT) {
    const entries = messages.slice(start, start + SQS_BATCH_LIMIT).map((message) => ({
      Id: ulid(),
      MessageBody: JSON.stringify(message),
      ...(delaySeconds ? { DelaySeconds: delaySeconds } : {}),
    }));
    const result = await sendMessageBatch()({ QueueUrl: queueUrl, Entries: entries });
    if (result.Failed?.length) {
      throw new Error(`${result.Failed.length} message(s) were not accepted by queue ${queue}`);
    }
  }
};
