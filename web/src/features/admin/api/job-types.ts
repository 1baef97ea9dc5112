import type { createJobTypeInput, updateJobTypeInput } from '@marketplace/events/admin';
import type { JobTypeView } from '@marketplace/events/job-types';
import type * as z from '@marketplace/events/zod';
import useSWR, { useSWRConfig } from 'swr';
import { apiPatch, apiPost } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';

export const ADMIN_JOB_TYPES_URL = '/api/admin/job-types';
/** The photographer's list of active job types; a price or on/off change must reach it too. */
const ORDERABLE_JOB_TYPES_URL = '/api/orders/job-types';

export type NewJobType = z.input<typeof createJobTypeInput>;
export type JobTypeChanges = z.input<typeof updateJobTypeInput>;

/** Every job type, inactive ones too, as the admin manages them. */
export function useAdminJobTypes() {
  const { user } = useAuth();
  return useSWR<JobTypeView[]>(user ? [ADMIN_JOB_TYPES_URL, user.uid] : null);
}

/** Creating or changing a job type: the call, then both job type lists are refreshed. */
export function useJobTypeWrites() {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  // The answer is shown at once, then both lists are read again.
  const refresh = (changed: JobTypeView) => {
    void mutate<JobTypeView[]>(
      [ADMIN_JOB_TYPES_URL, user?.uid],
      (list) =>
        list?.some((jobType) => jobType.id === changed.id)
          ? list.map((jobType) => (jobType.id === changed.id ? changed : jobType))
          : [...(list ?? []), changed],
      { revalidate: true },
    );
    void mutate(ORDERABLE_JOB_TYPES_URL);
  };
  return {
    create: async (jobType: NewJobType) => {
      const created = await apiPost<JobTypeView>(ADMIN_JOB_TYPES_URL, jobType);
      refresh(created);
      return created;
    },
    update: async (id: string, changes: JobTypeChanges) => {
      const updated = await apiPatch<JobTypeView>(`${ADMIN_JOB_TYPES_URL}/${encodeURIComponent(id)}`, changes);
      refresh(updated);
      return updated;
    },
  };
}
