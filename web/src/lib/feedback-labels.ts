import type { FeedbackStatus, FeedbackType } from '@marketplace/events/feedback';

/** Feedback words shared by the feedback form and the admin's feedback tab. */
export const feedbackTypeLabels: Record<FeedbackType, string> = {
  general: 'General feedback',
  problem: 'Problem',
  suggestion: 'Suggestion',
};

/** Each light badge carries a dark text shade of its hue, so the small label keeps a 4.5:1 contrast. */
export const feedbackStatusBadges: Record<FeedbackStatus, { label: string; color: string; text: string }> = {
  open: { label: 'Open', color: 'blue', text: '#10487a' },
  in_progress: { label: 'In Progress', color: 'yellow', text: '#5c4300' },
  resolved: { label: 'Resolved', color: 'green', text: '#1f5f2c' },
  closed: { label: 'Closed', color: 'gray', text: '#3b4148' },
};
