import { submitFeedbackInput } from '@marketplace/events/feedback';
import { submitFeedback } from '../../data/feedback';
import { http } from '../../http/http';
import { created } from '../../http/responses';

/** The server applies the form's own rules (type, trimmed 10..2000 characters) before anything is stored. */
export const handler = http({ body: submitFeedbackInput }, async ({ body, user }) =>
  created(
    await submitFeedback({
      userId: user.userId,
      userName: user.displayName ?? user.email,
      userEmail: user.email,
      type: body.type,
      message: body.message,
    }),
  ),
);
