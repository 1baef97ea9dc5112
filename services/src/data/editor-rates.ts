import { FALLBACK_EDITOR_RATE_CENTS } from '@marketplace/events/editor-orders';
import { marketplace } from './entities';
import { getJobType } from './job-types';

/** What an editor earns per photo, by job type: their own rate, else the job type's default, else the fallback. */
export interface EditorRateRecord {
  editorId: string;
  jobTypeId: string;
  ratePerPhotoCents: number;
}

/** All of an editor's rates by job type id (one Query on their partition). */
export const editorRatesByJobType = async (editorId: string) => {
  const { data } = await marketplace().entities.editorRate.query.byEditor({ editorId }).go({ pages: 'all' });
  return new Map((data as EditorRateRecord[]).map((r) => [r.jobTypeId, r.ratePerPhotoCents]));
};

export const setEditorRate = async (rate: EditorRateRecord) => {
  await marketplace().entities.editorRate.upsert(rate).go();
};

/** The rate fixed on an order when this editor claims it. */
export const claimRateCents = async (editorId: string, jobTypeId: string) => {
  const [{ data }, jobType] = await Promise.all([
    marketplace().entities.editorRate.get({ editorId, jobTypeId }).go(),
    getJobType(jobTypeId),
  ]);
  return data?.ratePerPhotoCents ?? jobType?.defaultEditorPriceCents ?? FALLBACK_EDITOR_RATE_CENTS;
};
