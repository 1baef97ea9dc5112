import { FALLBACK_EDITOR_RATE_CENTS } from '@marketplace/events/editor-orders';
import { BadRequest, Conflict, NotFound } from '../http/errors';
import { getRecord, models, queryAll } from './direct-reads';
import { writers } from './direct-writes';
import { getJobType, listJobTypes } from './job-types';
import { commitAll, TransactionCancelled } from './transactions';
import { getUser } from './users';

/** What an editor earns per photo, by job type: their own rate, else the job type's default, else the fallback. */
export interface EditorRateRecord {
  editorId: string;
  jobTypeId: string;
  ratePerPhotoCents: number;
}

/** All of an editor's rates by job type id (one Query on their partition). */
export const editorRatesByJobType = async (editorId: string) =>
  new Map((await listEditorRates(editorId)).map((r) => [r.jobTypeId, r.ratePerPhotoCents]));

export const setEditorRate = async (rate: EditorRateRecord) => {
  await writers().editorRate.upsert(rate).go();
};

/** The rate fixed on an order when this editor claims it. */
export const claimRateCents = async (editorId: string, jobTypeId: string) => {
  const [data, jobType] = await Promise.all([
    getRecord<EditorRateRecord>(models.editorRate, { editorId, jobTypeId }),
    getJobType(jobTypeId),
  ]);
  return data?.ratePerPhotoCents ?? jobType?.defaultEditorPriceCents ?? FALLBACK_EDITOR_RATE_CENTS;
};

/** The job types these rates name, by id; any unknown id is a 400. */
export const knownJobTypes = async (jobTypeIds: readonly string[]) => {
  const jobTypes = new Map((await listJobTypes({ activeOnly: false })).map((j) => [j.id, j]));
  const unknown = jobTypeIds.filter((id) => !jobTypes.has(id));
  if (unknown.length) throw new BadRequest(`Unknown job type: ${unknown.join(', ')}`, undefined, 'UNKNOWN_JOB_TYPE');
  return jobTypes;
};

/** All of an editor's rate records (one Query on their partition). */
export const listEditorRates = async (editorId: string) => {
  return queryAll<EditorRateRecord>(models.editorRate, 'byEditor', { editorId });
};

/**
 * Sets an editor's rates in one transaction: the listed ones, and with `replace` deletes every
 * other. A check in the same transaction pins the editor role, so rates never land on a record
 * that stopped being an editor (or an invitation accepted, and re-keyed, meanwhile).
 */
export const writeEditorRates = async (
  editorId: string,
  rates: readonly { jobTypeId: string; ratePerPhotoCents: number }[],
  { replace }: { replace: boolean },
) => {
  const [user] = await Promise.all([getUser(editorId), knownJobTypes(rates.map((r) => r.jobTypeId))]);
  if (!user?.roles.includes('editor')) throw new NotFound('Editor not found');
  const listed = new Set(rates.map((r) => r.jobTypeId));
  const stale = replace ? (await listEditorRates(editorId)).filter((r) => !listed.has(r.jobTypeId)) : [];
  try {
    await commitAll((e) => [
      e.user
        .check({ userId: editorId })
        .where(({ isEditor }, { exists }) => exists(isEditor))
        .commit(),
      ...rates.map((r) =>
        e.editorRate.put({ editorId, jobTypeId: r.jobTypeId, ratePerPhotoCents: r.ratePerPhotoCents }).commit(),
      ),
      ...stale.map((r) => e.editorRate.delete({ editorId, jobTypeId: r.jobTypeId }).commit()),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed) throw new NotFound('Editor not found');
    if (error instanceof TransactionCancelled) {
      throw new Conflict('These rates were changed at the same time. Please try again.');
    }
    throw error;
  }
};
