import { updateFeedbackInput } from '@marketplace/events/admin';
import * as z from 'zod';
import { updateFeedback } from '../../data/feedback';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** An admin's review of one item: its status, notes, and who reviewed it. */
export const handler = http(
  { params: z.object({ id: z.string().trim().min(1).max(64) }), body: updateFeedbackInput },
  async ({ params, body, user }) =>
    ok(
      await updateFeedback({
        feedbackId: params.id,
        status: body.status,
        adminNotes: body.adminNotes,
        reviewerName: user.displayName ?? user.email,
      }),
    ),
);
