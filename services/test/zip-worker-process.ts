import type { SQSEvent } from 'aws-lambda';
import { s3 } from '../src/adapters/s3';
import { handler } from '../src/workers/build-zip';

/**
 * The zip worker's Lambda handler on one SQS message, in a process of its own so a test can kill
 * it for real in the middle of a build. Each upload part S3 accepted is reported on stdout as a
 * line `PART {"part":n,"uploadId":...,"key":...}`, so the test knows when to kill it; the
 * handler's answer follows as `DONE {...}`.
 *
 *   node --import tsx services/test/zip-worker-process.ts <message body> <message id>
 */
const [body, messageId] = process.argv.slice(2);
if (!body || !messageId) throw new Error('usage: zip-worker-process.ts <message body> <message id>');

s3().middlewareStack.add(
  (next, context) => async (args) => {
    const result = await next(args);
    if (context.commandName === 'UploadPartCommand') {
      const input = args.input as { UploadId: string; PartNumber: number; Key: string };
      console.log(`PART ${JSON.stringify({ part: input.PartNumber, uploadId: input.UploadId, key: input.Key })}`);
    }
    return result;
  },
  { step: 'initialize', name: 'reportUploadedParts' },
);

const event = {
  Records: [
    {
      messageId,
      receiptHandle: messageId,
      body,
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()) },
      messageAttributes: {},
      eventSource: 'aws:sqs',
    },
  ],
} as unknown as SQSEvent;

const answer = await handler(event);
console.log(`DONE ${JSON.stringify(answer)}`);
process.exit(0);
