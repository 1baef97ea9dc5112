import type { FeedbackType, FeedbackView } from '@marketplace/events/feedback';
import { ulid } from 'ulid';
import { marketplace } from './entities';

type FeedbackRecord = {
  feedbackId: string;
  userId: string;
  userName: string;
  userEmail: string;
  type: FeedbackType;
  status: FeedbackView['status'];
  message: string;
  adminNotes?: string;
  reviewerName?: string;
  reviewedAt?: string;
  createdAt: string;
};

export const toFeedbackView = (f: FeedbackRecord): FeedbackView => ({
  id: f.feedbackId,
  type: f.type,
  status: f.status,
  message: f.message,
  userName: f.userName,
  userEmail: f.userEmail,
  createdAt: f.createdAt,
  adminNotes: f.adminNotes ?? null,
  reviewerName: f.reviewerName ?? null,
  reviewedAt: f.reviewedAt ?? null,
});

/** Stores the feedback and bumps the admin's counters in one transaction: both or neither. */
export const submitFeedback = async (input: {
  userId: string;
  userName: string;
  userEmail: string;
  type: FeedbackType;
  message: string;
}) => {
  const record = {
    feedbackId: ulid(),
    ...input,
    status: 'open' as const,
    createdAt: new Date().toISOString(),
  };
  const bump = (name: string) => ({ scope: 'feedback', name });
  await marketplace()
    .transaction.write(({ feedback, counter }) => [
      feedback.create(record).commit(),
      counter.update(bump('total')).add({ value: 1 }).commit(),
      counter
        .update(bump(`type#${record.type}`))
        .add({ value: 1 })
        .commit(),
      counter.update(bump('status#open')).add({ value: 1 }).commit(),
    ])
    .go();
  return toFeedbackView(record);
};

export const MY_FEEDBACK_PAGE_SIZE = 50;

/** The user's own feedback, newest first, a page at a time. */
export const listFeedbackByUser = async (userId: string, cursor?: string) => {
  const { data, cursor: next } = await marketplace()
    .entities.feedback.query.byUser({ userId })
    .go({ order: 'desc', limit: MY_FEEDBACK_PAGE_SIZE, cursor: cursor ?? null });
  return { feedback: (data as FeedbackRecord[]).map(toFeedbackView), nextCursor: next ?? null };
};
