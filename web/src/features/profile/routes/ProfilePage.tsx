import { ComingSoon } from '../../../components/ComingSoon';

const plannedFeatures = [
  'Profile editing',
  'Notification preferences',
  'Payment method management',
  'Editor payout account setup',
  'Security settings',
];

export function ProfilePage() {
  return <ComingSoon title="Profile" intro="Your account settings will live here." planned={plannedFeatures} />;
}
