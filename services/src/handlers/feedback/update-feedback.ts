import { updateFeedbackInput } from '@marketplace/events/admin';
import * as z from '@marketplace/events/zod';
import { updateFeedback } from '../../data/feedback';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** An admin's review of one item: its status, notes, and who reviewed it. */
export const handler = http(
  { params: z.object({ id: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)) }), body: updateFeedbackInput },
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
