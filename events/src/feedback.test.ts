import { describe, expect, it } from 'vitest';
import { FEEDBACK_MAX_LENGTH, feedbackMessages, submitFeedbackInput } from './feedback';

const message = (length: number) => 'x'.repeat(length);
const errorOf = (input: unknown) => submitFeedbackInput.safeParse(input).error?.issues[0]?.message;

describe('the feedback rule shared by the form and the server', () => {
  it('accepts 10 and 2000 characters and rejects 9 and 2001, counted after trimming', () => {
    expect(errorOf({ type: 'problem', message: `  ${message(9)}  ` })).toBe(feedbackMessages.tooShort);
    expect(errorOf({ type: 'problem', message: `  ${message(10)}  ` })).toBeUndefined();
    expect(errorOf({ type: 'problem', message: message(FEEDBACK_MAX_LENGTH) })).toBeUndefined();
    expect(errorOf({ type: 'problem', message: message(FEEDBACK_MAX_LENGTH + 1) })).toBe(feedbackMessages.tooLong);
  });

  it('asks for a message when it is empty or only spaces', () => {
    expect(errorOf({ type: 'general', message: '    ' })).toBe(feedbackMessages.empty);
    expect(errorOf({ type: 'general' })).toBe(feedbackMessages.empty);
  });

  it('stores the trimmed message and defaults the type to general', () => {
    expect(submitFeedbackInput.parse({ message: '  the upload stalls  ' })).toEqual({
      type: 'general',
      message: 'the upload stalls',
    });
  });

  it('rejects a type outside problem, suggestion and general', () => {
    expect(submitFeedbackInput.safeParse({ type: 'complaint', message: message(20) }).success).toBe(false);
  });
});
