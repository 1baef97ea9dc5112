import { FEEDBACK_MAX_LENGTH, FEEDBACK_MIN_LENGTH } from '@marketplace/events/feedback';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { renderApp } from '../../../test/render-app';

const earlierReport = {
  id: 'fb-1',
  type: 'problem',
  status: 'in_progress',
  message: 'The upload stalled at 80% on my second order.',
  userName: 'Pat Doe',
  userEmail: 'pat@example.com',
  createdAt: '2025-03-05T10:00:00.000Z',
  adminNotes: null,
  reviewerName: null,
  reviewedAt: null,
};

async function openFeedbackPage() {
  const view = renderApp('/feedback');
  await screen.findByRole('heading', { name: 'Report a Problem or Suggestion' });
  return view;
}

async function submitMessage(view: ReturnType<typeof renderApp>, message: string) {
  const box = screen.getByRole('textbox', { name: /Message/ });
  await view.user.click(box);
  await view.user.paste(message);
  await view.user.click(screen.getByRole('button', { name: 'Submit Feedback' }));
}

/** A message of `length` characters once trimmed, with spaces around it that the form must ignore. */
const paddedMessage = (length: number) => `   ${'a'.repeat(length)}  \n`;

describe('Feedback page', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    fakeApi.on('GET', '/api/feedback/my', { status: 200, body: { feedback: [], nextCursor: null } });
    fakeApi.on('POST', '/api/feedback', (request) => ({
      status: 201,
      body: { ...earlierReport, id: 'fb-new', status: 'open', ...(request.body as object) },
    }));
  });

  it('asks for a message when only spaces were typed', async () => {
    const view = await openFeedbackPage();
    await submitMessage(view, '     ');
    expect(await screen.findByText('Please enter your message')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/feedback')).toHaveLength(0);
  });

  it(`refuses a message of ${FEEDBACK_MIN_LENGTH - 1} characters after trimming`, async () => {
    const view = await openFeedbackPage();
    await submitMessage(view, paddedMessage(FEEDBACK_MIN_LENGTH - 1));
    expect(await screen.findByText('Message must be at least 10 characters long')).toBeInTheDocument();
    // The message is tied to the box, so a screen reader reads it with the field.
    expect(screen.getByRole('textbox', { name: /Message/ })).toHaveAccessibleDescription(
      expect.stringContaining('Message must be at least 10 characters long'),
    );
    expect(fakeApi.requestsTo('POST', '/api/feedback')).toHaveLength(0);
  });

  it(`sends a message of ${FEEDBACK_MIN_LENGTH} characters trimmed, with the default type general`, async () => {
    const view = await openFeedbackPage();
    await submitMessage(view, paddedMessage(FEEDBACK_MIN_LENGTH));
    expect(await screen.findByRole('heading', { name: 'Feedback Submitted!' })).toBeInTheDocument();
    expect(screen.getByText('Thank you! Your feedback has been submitted successfully.')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/feedback')[0]?.body).toEqual({
      type: 'general',
      message: 'a'.repeat(FEEDBACK_MIN_LENGTH),
    });
  });

  it(`sends a message of ${FEEDBACK_MAX_LENGTH} characters after trimming`, async () => {
    const view = await openFeedbackPage();
    await submitMessage(view, paddedMessage(FEEDBACK_MAX_LENGTH));
    expect(await screen.findByRole('heading', { name: 'Feedback Submitted!' })).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/feedback')[0]?.body).toMatchObject({
      message: 'a'.repeat(FEEDBACK_MAX_LENGTH),
    });
  });

  it(`refuses a message of ${FEEDBACK_MAX_LENGTH + 1} characters after trimming`, async () => {
    const view = await openFeedbackPage();
    await submitMessage(view, paddedMessage(FEEDBACK_MAX_LENGTH + 1));
    expect(await screen.findByText('Message must be less than 2000 characters')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/feedback')).toHaveLength(0);
  });

  it('sends the chosen type', async () => {
    const view = await openFeedbackPage();
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'problem');
    await submitMessage(view, 'The payment page froze after I pressed Pay.');
    await screen.findByRole('heading', { name: 'Feedback Submitted!' });
    expect(fakeApi.requestsTo('POST', '/api/feedback')[0]?.body).toMatchObject({ type: 'problem' });
  });

  it("shows the server's words when the report is refused", async () => {
    fakeApi.on('POST', '/api/feedback', {
      status: 400,
      body: { error: 'VALIDATION_FAILED', message: 'Message must be at least 10 characters long' },
    });
    const view = await openFeedbackPage();
    await submitMessage(view, 'A perfectly long enough message.');
    expect(await screen.findByText('Message must be at least 10 characters long')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Feedback Submitted!' })).not.toBeInTheDocument();
  });

  it('says the report failed when the server gives no reason', async () => {
    fakeApi.on('POST', '/api/feedback', { status: 503 });
    const view = await openFeedbackPage();
    await submitMessage(view, 'A perfectly long enough message.');
    expect(await screen.findByText('Failed to submit feedback. Please try again.')).toBeInTheDocument();
    // What was typed is kept so it can be sent again.
    expect(screen.getByRole('textbox', { name: /Message/ })).toHaveValue('A perfectly long enough message.');
  });

  it('returns to an empty form from the confirmation with Submit More Feedback', async () => {
    const view = await openFeedbackPage();
    await submitMessage(view, 'The editor notes box is too small.');
    await view.user.click(await screen.findByRole('button', { name: 'Submit More Feedback' }));
    expect(screen.getByRole('textbox', { name: /Message/ })).toHaveValue('');
    expect(screen.getByRole('combobox', { name: 'Type' })).toHaveValue('general');
  });

  it('empties the form with Clear', async () => {
    const view = await openFeedbackPage();
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'suggestion');
    await view.user.type(screen.getByRole('textbox', { name: /Message/ }), 'Half a thought');
    await view.user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getByRole('textbox', { name: /Message/ })).toHaveValue('');
    expect(screen.getByRole('combobox', { name: 'Type' })).toHaveValue('general');
  });

  it('lists earlier reports with type, status, date and message', async () => {
    fakeApi.on('GET', '/api/feedback/my', { status: 200, body: { feedback: [earlierReport], nextCursor: null } });
    await openFeedbackPage();
    const list = await screen.findByRole('list');
    expect(within(list).getByText('Problem')).toBeInTheDocument();
    expect(within(list).getByText('In Progress')).toBeInTheDocument();
    expect(within(list).getByText('Mar 5, 2025')).toBeInTheDocument();
    expect(within(list).getByText(earlierReport.message)).toBeInTheDocument();
  });

  it('says so when there are no earlier reports', async () => {
    await openFeedbackPage();
    expect(await screen.findByText('You have not sent any reports yet.')).toBeInTheDocument();
  });

  it('refreshes the list of earlier reports after a report is sent', async () => {
    const view = await openFeedbackPage();
    await screen.findByText('You have not sent any reports yet.');
    fakeApi.on('GET', '/api/feedback/my', {
      status: 200,
      body: { feedback: [{ ...earlierReport, message: 'Brand new report text' }], nextCursor: null },
    });
    await submitMessage(view, 'Brand new report text');
    await waitFor(() => expect(screen.getByText('Brand new report text')).toBeInTheDocument());
    expect(fakeApi.requestsTo('GET', '/api/feedback/my')).toHaveLength(2);
  });
});
