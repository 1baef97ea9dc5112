import { Badge } from '@mantine/core';
import type { FeedbackStatus } from '@marketplace/events/feedback';
import { feedbackStatusBadges } from '../../../../lib/feedback-labels';

export function FeedbackStatusBadge({ status }: { status: FeedbackStatus }) {
  const badge = feedbackStatusBadges[status] ?? feedbackStatusBadges.closed;
  return (
    <Badge variant="light" color={badge.color} c={badge.text} size="sm" style={{ flexShrink: 0 }}>
      {badge.label}
    </Badge>
  );
}
