import { Logger } from '@aws-lambda-powertools/logger';
import type { LogLevel } from '@aws-lambda-powertools/logger/types';
import { withReadableStacks } from './readable-stacks';

/**
 * Structured JSON logs; in Lambda they carry the request id, locally they go to the dev console.
 * An error's stack is written in the sources' files and lines (readable-stacks.ts).
 */
export const logger = new Logger({
  serviceName: 'marketplace',
  logLevel: (process.env.LOG_LEVEL ?? 'INFO') as LogLevel,
  jsonReplacerFn: withReadableStacks,
});
