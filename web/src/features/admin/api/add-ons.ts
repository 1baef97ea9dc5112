import type { AddOnView, CreateAddOnInput, UpdateAddOnInput } from '@marketplace/events/add-ons';
import useSWR, { useSWRConfig } from 'swr';
import { apiPatch, apiPost } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';

export const ADMIN_ADD_ONS_URL = '/api/admin/job-types/add-ons';
/** The photographer's list of offered add-ons; a price or on/off change must reach it too. */
const OFFERED_ADD_ONS_URL = '/api/orders/add-ons';

/** Every add-on, withdrawn ones too, as the admin manages them. */
export function useAdminAddOns() {
  const { user } = useAuth();
  return useSWR<AddOnView[]>(user ? [ADMIN_ADD_ONS_URL, user.uid] : null);
}

/** Creating or changing an add-on: the call, then both add-on lists are refreshed. */
export function useAddOnWrites() {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  const refresh = (changed: AddOnView) => {
    void mutate<AddOnView[]>(
      [ADMIN_ADD_ONS_URL, user?.uid],
      (list) =>
        list?.some((addOn) => addOn.id === changed.id)
          ? list.map((addOn) => (addOn.id === changed.id ? changed : addOn))
          : [...(list ?? []), changed],
      { revalidate: true },
    );
    void mutate((key) => Array.isArray(key) && key[0] === OFFERED_ADD_ONS_URL);
  };
  return {
    create: async (addOn: CreateAddOnInput) => {
      const created = await apiPost<AddOnView>(ADMIN_ADD_ONS_URL, addOn);
      refresh(created);
      return created;
    },
    update: async (id: string, changes: UpdateAddOnInput) => {
      const updated = await apiPatch<AddOnView>(`${ADMIN_ADD_ONS_URL}/${encodeURIComponent(id)}`, changes);
      refresh(updated);
      return updated;
    },
  };
}
