import type { JobTypeView } from '@marketplace/events/job-types';
import { marketplace } from './entities';

type JobTypeRecord = {
  jobTypeId: string;
  name: string;
  description?: string;
  pricePerPhotoCents: number;
  defaultEditorPriceCents: number;
  isActive: boolean;
  createdAt: string;
};

export const toJobTypeView = (j: JobTypeRecord): JobTypeView => ({
  id: j.jobTypeId,
  name: j.name,
  description: j.description ?? null,
  pricePerPhotoCents: j.pricePerPhotoCents,
  defaultEditorPriceCents: j.defaultEditorPriceCents,
  isActive: j.isActive,
  createdAt: j.createdAt,
});

/** Job types are few (a handful to a few dozen): one partition, by name, read whole. */
export const listJobTypes = async ({ activeOnly }: { activeOnly: boolean }) => {
  const query = marketplace().entities.jobType.query.all({});
  const { data } = await (activeOnly ? query.where(({ isActive }, { eq }) => eq(isActive, true)) : query).go({
    pages: 'all',
  });
  return (data as JobTypeRecord[]).map(toJobTypeView);
};

export const upsertJobType = async (jobType: Omit<JobTypeRecord, 'createdAt'>) => {
  const { data } = await marketplace().entities.jobType.upsert(jobType).go({ response: 'all_new' });
  return toJobTypeView(data as JobTypeRecord);
};

export const getJobType = async (jobTypeId: string) => {
  const { data } = await marketplace().entities.jobType.get({ jobTypeId }).go();
  return data ? toJobTypeView(data as JobTypeRecord) : null;
};
