import * as z from './zod';

/** Limits shared by the feedback form and the feedback routes, so the two can never disagree. */
export const FEEDBACK_MIN_LENGTH = 10;
export const FEEDBACK_MAX_LENGTH = 2000;
export const feedbackTypes = ['problem', 'suggestion', 'general'] as const;
export const feedbackStatuses = ['open', 'in_progress', 'resolved', 'closed'] as const;
export type FeedbackType = (typeof feedbackTypes)[number];
export type FeedbackStatus = (typeof feedbackStatuses)[number];

export const feedbackMessages = {
  empty: 'Please enter your message',
  tooShort: `Message must be at least ${FEEDBACK_MIN_LENGTH} characters long`,
  tooLong: `Message must be less than ${FEEDBACK_MAX_LENGTH} characters`,
} as const;

export const submitFeedbackInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    type: z._default(z.enum(feedbackTypes), 'general'),
    message: z
      .string({ error: feedbackMessages.empty })
      .check(
        z.trim(),
        z.minLength(1, feedbackMessages.empty),
        z.minLength(FEEDBACK_MIN_LENGTH, feedbackMessages.tooShort),
        z.maxLength(FEEDBACK_MAX_LENGTH, feedbackMessages.tooLong),
      ),
  }),
);
export type SubmitFeedbackInput = z.infer<typeof submitFeedbackInput>;

export interface FeedbackView {
  id: string;
  type: FeedbackType;
  status: FeedbackStatus;
  message: string;
  userName: string;
  userEmail: string;
  createdAt: string;
  adminNotes: string | null;
  reviewerName: string | null;
  reviewedAt: string | null;
}
