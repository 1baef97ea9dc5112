import type { JobTypeView } from '@marketplace/events/job-types';
import type { TierSurcharges } from '@marketplace/events/turnaround';
import { ulid } from 'ulid';
import { Conflict, NotFound } from '../http/errors';
import { isConditionFailure } from './conditional-write';
import { getRecord, models, queryAll } from './direct-reads';
import { writers } from './direct-writes';
import { commitAll, TransactionCancelled } from './transactions';

type JobTypeRecord = {
  jobTypeId: string;
  name: string;
  description?: string;
  pricePerPhotoCents: number;
  defaultEditorPriceCents: number;
  /** Absent on job types made before tiers: no surcharge. */
  tierSurchargeCents?: TierSurcharges;
  isActive: boolean;
  createdAt: string;
};

export const toJobTypeView = (j: JobTypeRecord): JobTypeView => ({
  id: j.jobTypeId,
  name: j.name,
  description: j.description ?? null,
  pricePerPhotoCents: j.pricePerPhotoCents,
  defaultEditorPriceCents: j.defaultEditorPriceCents,
  tierSurchargeCents: { express: j.tierSurchargeCents?.express ?? 0, rush: j.tierSurchargeCents?.rush ?? 0 },
  isActive: j.isActive,
  createdAt: j.createdAt,
});

/** Job types are few (a handful to a few dozen): one partition, by name, read whole. */
export const listJobTypes = async ({ activeOnly }: { activeOnly: boolean }) => {
  // Every job type is read either way (a filter saves no reads): the inactive ones are left out here.
  const all = await queryAll<JobTypeRecord>(models.jobType, 'all', {});
  return (activeOnly ? all.filter((j) => j.isActive === true) : all).map(toJobTypeView);
};

const getJobTypeRecord = async (jobTypeId: string) => {
  return getRecord<JobTypeRecord>(models.jobType, { jobTypeId }, { consistent: true });
};

export const getJobType = async (jobTypeId: string) => {
  const record = await getJobTypeRecord(jobTypeId);
  return record ? toJobTypeView(record) : null;
};

/** Names compare case-insensitively and ignore runs of spaces: 'Sky  replacement' is 'Sky Replacement'. */
export const jobTypeNameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** The id a new job type gets when it is free: its name as a URL slug, like the seeded 'hdr'. */
export const jobTypeSlug = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');

const nameTaken = (name: string) => new Conflict(`A job type named ${name} already exists`);

/** The codes of a transaction's items when DynamoDB cancelled it ('None' where one held), else null. */
const cancellationCodes = async (write: Promise<void>) => {
  try {
    await write;
    return null;
  } catch (error) {
    if (error instanceof TransactionCancelled) return error.codes;
    throw error;
  }
};
const conditionFailed = (code: string | undefined) => code === 'ConditionalCheckFailed';

type NewJobType = Omit<JobTypeRecord, 'jobTypeId' | 'createdAt' | 'isActive'>;

/**
 * Creates a job type and claims its name in one transaction: of two creates with one name, one
 * wins and the other is told the name is taken. The id is the name's slug when no job type has it
 * yet (a renamed type keeps its old slug), else a ULID.
 */
export const createJobType = async (input: NewJobType) => {
  const slug = jobTypeSlug(input.name);
  for (const jobTypeId of slug ? [slug, ulid()] : [ulid()]) {
    const record = { ...input, jobTypeId, isActive: true, createdAt: new Date().toISOString() };
    const codes = await cancellationCodes(
      commitAll(({ jobType, jobTypeName }) => [
        jobTypeName.create({ nameKey: jobTypeNameKey(input.name), jobTypeId }).commit(),
        jobType.create(record).commit(),
      ]),
    );
    if (!codes) return toJobTypeView(record);
    if (conditionFailed(codes[0])) throw nameTaken(input.name);
    if (!conditionFailed(codes[1])) throw new Error(`Creating a job type failed: ${codes.join(', ')}`);
  }
  throw new Conflict('Could not find a free id for this job type. Please try again.');
};

export type JobTypeChanges = {
  name?: string;
  description?: string | null;
  pricePerPhotoCents?: number;
  defaultEditorPriceCents?: number;
  tierSurchargeCents?: TierSurcharges;
  isActive?: boolean;
};

/**
 * Changes a job type. New prices apply to orders placed from now on: an order copies its price
 * when it is created. A rename moves the name claim in the same transaction, pinned to the name
 * read, so a concurrent rename is retried once on fresh data rather than leaving a stale claim.
 */
export const updateJobType = async (jobTypeId: string, changes: JobTypeChanges) => {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const current = await getJobTypeRecord(jobTypeId);
    if (!current) throw new NotFound('Job type not found');
    const { description, ...fields } = changes;
    const set = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    const clearsDescription = description === null || description === '';
    if (description) Object.assign(set, { description });
    const oldKey = jobTypeNameKey(current.name);
    const newKey = changes.name === undefined ? oldKey : jobTypeNameKey(changes.name);

    type Entities = Parameters<Parameters<typeof commitAll>[0]>[0];
    const pinnedPatch = (jobType: Entities['jobType']) => {
      const patch = jobType.patch({ jobTypeId }).set(set);
      return (clearsDescription ? patch.remove(['description']) : patch)
        .where(({ name }, { eq }) => eq(name, current.name))
        .commit();
    };
    const codes = await cancellationCodes(
      newKey === oldKey
        ? commitAll(({ jobType }) => [pinnedPatch(jobType)])
        : commitAll(({ jobType, jobTypeName }) => [
            pinnedPatch(jobType),
            jobTypeName.create({ nameKey: newKey, jobTypeId }).commit(),
            // Unconditional: a type created before names were claimed has no claim to release.
            jobTypeName
              .delete({ nameKey: oldKey })
              .commit(),
          ]),
    );
    if (!codes) return toJobTypeView({ ...current, ...set, ...(clearsDescription ? { description: undefined } : {}) });
    if (conditionFailed(codes[1])) throw nameTaken(changes.name!);
    if (!conditionFailed(codes[0])) throw new Error(`Updating a job type failed: ${codes.join(', ')}`);
  }
  throw new Conflict('This job type was changed by someone else at the same time. Please reload and try again.');
};

/** A write of the job type as given (tests and ops), with its name claimed when free. */
export const upsertJobType = async (jobType: Omit<JobTypeRecord, 'createdAt'>) => {
  const { data } = await writers().jobType.upsert(jobType).go({ response: 'all_new' });
  await claimNameIfFree(jobType);
  return toJobTypeView(data as JobTypeRecord);
};

/**
 * The seed's write: creates the job type when its id is new and leaves an existing one alone, so
 * restarting never undoes an admin's prices or names. It claims the name when free, so job types
 * written before names were claimed get their claim.
 */
export const ensureJobType = async (jobType: Omit<JobTypeRecord, 'createdAt'>) => {
  await writers()
    .jobType.create(jobType)
    .go()
    .catch((error) => {
      if (!isConditionFailure(error)) throw error;
    });
  const current = await getJobTypeRecord(jobType.jobTypeId);
  if (current) await claimNameIfFree(current);
};

const claimNameIfFree = async ({ jobTypeId, name }: { jobTypeId: string; name: string }) => {
  await writers()
    .jobTypeName.create({ nameKey: jobTypeNameKey(name), jobTypeId })
    .go()
    .catch((error) => {
      if (!isConditionFailure(error)) throw error;
    });
};
