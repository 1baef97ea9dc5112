import { getRecord, models } from '../../data/direct-reads';
import { publicHttp } from '../../http/http';
import { json, ok } from '../../http/responses';

/** Answers 200 only when the table answers a read; load balancers and the dev banner rely on it. */
export const handler = publicHttp({}, async () => {
  try {
    await getRecord(models.counter, { scope: 'health', name: 'ping' });
    return ok({ status: 'ok', checkedAt: new Date().toISOString() });
  } catch {
    return json(503, { error: 'UNAVAILABLE', message: 'The database is not answering' });
  }
});
