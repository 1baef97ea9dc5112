/** A worker's newest failure, as `npm run ops -- status` shows it. */
export interface WorkerError {
  /** ISO time of the failure. */
  at: string;
  /** The SQS message that failed (a dead letter keeps this id). */
  messageId?: string;
  message: string;
}

/**
 * One line from an ERROR log entry of the Powertools logger (`{"level":"ERROR","message":...,
 * "messageId":...,"error":{"name","message","stack"}}`): what the worker said and the error's own
 * message. Locally the queue runner reads these lines from stderr; in the cloud they are the
 * worker's log group, so both read the same words.
 */
export const describeLoggedError = (entry: Record<string, unknown>) => {
  const said = typeof entry.message === 'string' && entry.message ? entry.message : 'error';
  const error = entry.error;
  const cause =
    typeof error === 'string'
      ? error
      : error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string'
        ? (error as { message: string }).message
        : undefined;
  return cause ? `${said}: ${cause}` : said;
};
