import { Logger } from '@aws-lambda-powertools/logger';
import type { LogLevel } from '@aws-lambda-powertools/logger/types';

/** Structured JSON logs; in Lambda they carry the request id, locally they go to the dev console. */
export const logger = new Logger({
  serviceName: 'marketplace',
  logLevel: (process.env.LOG_LEVEL ?? 'INFO') as LogLevel,
});
