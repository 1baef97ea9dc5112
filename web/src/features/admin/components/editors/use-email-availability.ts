import { useDebouncedValue } from '@mantine/hooks';
import * as z from '@marketplace/events/zod';
import useSWR from 'swr';
import { useAuth } from '../../../../lib/auth-context';
import { checkEmailAvailability } from '../../api/editors';

const CHECK_DELAY_MS = 400;
const wellFormedEmail = z.email();

export const emailUnavailableTexts = {
  registered: 'This email is already registered',
  invited: 'An invitation is already pending for this email',
} as const;

/** Why this email cannot be invited, checked a moment after typing stops and only once it is well-formed; null when it can be (or is not known yet). */
export function useEmailUnavailableText(email: string): string | null {
  const { user } = useAuth();
  const [settled] = useDebouncedValue(email.trim().toLowerCase(), CHECK_DELAY_MS);
  const checkable = user && wellFormedEmail.safeParse(settled).success;
  const { data } = useSWR(
    checkable ? ['check-email', settled, user.uid] : null,
    ([, address]: [string, string, string]) => checkEmailAvailability(address),
    { dedupingInterval: 0 },
  );
  if (!data || data.available || !data.reason) return null;
  return settled === email.trim().toLowerCase() ? emailUnavailableTexts[data.reason] : null;
}
