import { Badge } from '@mantine/core';
import { type TurnaroundTier, turnaroundTierLabel } from '@marketplace/events/turnaround';

const colors: Record<TurnaroundTier, string> = { standard: 'gray', express: 'blue', rush: 'grape' };

/** The order's turnaround tier: 'Express (24 h)' and so on; dark text on a light badge for contrast. */
export function TierBadge({ tier, size = 'sm' }: { tier: TurnaroundTier; size?: 'xs' | 'sm' | 'md' }) {
  return (
    <Badge size={size} variant="light" color={colors[tier]} c={`${colors[tier]}.9`} data-testid="tier-badge">
      {turnaroundTierLabel[tier]}
    </Badge>
  );
}
