import type { FeedbackStatus, FeedbackType } from '@marketplace/events/feedback';

export const feedbackTypeLabels: Record<FeedbackType, string> = {
  general: 'General feedback',
  problem: 'Problem',
  suggestion: 'Suggestion',
};

export const feedbackStatusBadges: Record<FeedbackStatus, { label: string; color: string }> = {
  open: { label: 'Open', color: 'blue' },
  in_progress: { label: 'In Progress', color: 'yellow' },
  resolved: { label: 'Resolved', color: 'green' },
  closed: { label: 'Closed', color: 'gray' },
};
