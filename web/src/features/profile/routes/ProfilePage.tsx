import { Stack } from '@mantine/core';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoader } from '../../../components/PageLoader';
import { useCurrentUser } from '../../../lib/current-user';
import { AccountDetails } from '../components/AccountDetails';
import { BillingHistorySection } from '../components/BillingHistorySection';
import { EditingStyleSection } from '../components/EditingStyleSection';
import { NotificationsSection } from '../components/NotificationsSection';
import { PaymentMethodsSection } from '../components/PaymentMethodsSection';
import { PayoutAccountSection } from '../components/PayoutAccountSection';
import { PayoutsSection } from '../components/PayoutsSection';
import { ProfileSection } from '../components/ProfileSection';
import { SecuritySection } from '../components/SecuritySection';

/**
 * The account's settings, a section per part the spec plans: who you are, notifications,
 * security, and the money parts each role has (photographers' payment methods, editors' payout
 * account). A part not built yet says so in its own section.
 */
export function ProfilePage() {
  const { data: me } = useCurrentUser();
  // The protected page has loaded the user before this page renders; this covers a revalidation gap.
  if (!me) return <PageLoader label="Loading your profile…" />;
  return (
    <Stack gap="lg" maw={960}>
      <PageHeader title="Profile" description="Your account, and how the marketplace works for you." mb={0} />
      <ProfileSection title="Profile">
        <AccountDetails me={me} />
      </ProfileSection>
      {me.roles.includes('photographer') && <EditingStyleSection />}
      {me.roles.includes('photographer') && <PaymentMethodsSection />}
      {me.roles.includes('photographer') && <BillingHistorySection />}
      {me.roles.includes('editor') && <PayoutAccountSection />}
      {me.roles.includes('editor') && <PayoutsSection />}
      <NotificationsSection />
      <SecuritySection />
    </Stack>
  );
}
