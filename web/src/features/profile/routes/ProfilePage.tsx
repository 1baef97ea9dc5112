import { ComingSoon } from '../../../components/ComingSoon';

const plannedFeatures = [
  'Edit your profile',
  'Notification preferences',
  'Payment method management',
  'Payout account setup for editors',
  'Security settings',
];

export function ProfilePage() {
  return <ComingSoon title="Profile" intro="Your account settings will live here." planned={plannedFeatures} />;
}
