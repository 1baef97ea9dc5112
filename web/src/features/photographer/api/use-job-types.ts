import type { JobTypeView } from '@marketplace/events/job-types';
import useSWR from 'swr';

export const JOB_TYPES_URL = '/api/orders/job-types';

/** The services a photographer can order, with their price per photo (active ones only). */
export function useJobTypes() {
  return useSWR<JobTypeView[]>(JOB_TYPES_URL);
}
