import type { FeedbackStatsView } from '@marketplace/events/admin';
import type { FeedbackView } from '@marketplace/events/feedback';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, type RecordedRequest } from '../../../../test/fake-api';
import { fakeFirebase } from '../../../../test/fake-firebase-auth';
import { aMeView } from '../../../../test/me-view';
import { renderApp } from '../../../../test/render-app';

const LIST_PATH = '/api/feedback/all';
const STATS_PATH = '/api/feedback/stats';

const aFeedback = (fields: Partial<FeedbackView> = {}): FeedbackView => ({
  id: '01JFEEDBACKOPEN00000000000',
  type: 'problem',
  status: 'open',
  message: 'The upload stalls at 90% on my phone.',
  userName: 'Pat Lens',
  userEmail: 'pat@example.com',
  createdAt: '2025-03-05T10:00:00.000Z',
  adminNotes: null,
  reviewerName: null,
  reviewedAt: null,
  ...fields,
});

const openProblem = aFeedback();
const suggestionInProgress = aFeedback({
  id: '01JSUGGESTIONPROGRESS00000',
  type: 'suggestion',
  status: 'in_progress',
  message: 'Please add a dark mode.',
  userName: 'Erin Edits',
  userEmail: 'erin@example.com',
  adminNotes: 'Planned for spring',
  reviewerName: 'Ada Admin',
  reviewedAt: '2025-03-06T10:00:00.000Z',
});

const stats: FeedbackStatsView = {
  total: 12,
  byType: { problem: 5, suggestion: 4, general: 3 },
  byStatus: { open: 7, in_progress: 2, resolved: 2, closed: 1 },
};

const listOf = (
  feedback: FeedbackView[],
  fields: { total?: number; totalPages?: number; nextCursor?: string | null } = {},
) => ({
  status: 200,
  body: {
    feedback,
    total: fields.total ?? feedback.length,
    totalPages: fields.totalPages ?? 1,
    page: 1,
    nextCursor: fields.nextCursor ?? null,
  },
});

async function openFeedbackTab() {
  const view = renderApp('/admin?tab=feedback');
  await screen.findByRole('heading', { name: 'Admin Dashboard' });
  // The tab's code loads on demand; the first load in a run can take a while.
  await screen.findByRole('combobox', { name: 'Type' }, { timeout: 15_000 });
  return view;
}

const feedbackCard = async (shortId: string) =>
  within(await screen.findByRole('list', { name: 'Feedback' })).findByRole('listitem', {
    name: `Feedback #${shortId}`,
  });

describe('Feedback tab', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'admin@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: 'admin@example.com', roles: ['admin'] }) });
    fakeApi.on('GET', '/api/admin/users', { status: 200, body: { users: [] } });
    fakeApi.on('GET', '/api/admin/invited-users', { status: 200, body: { users: [] } });
    fakeApi.on('GET', STATS_PATH, { status: 200, body: { stats } });
    fakeApi.on('GET', LIST_PATH, listOf([openProblem, suggestionInProgress], { total: 9 }));
  });

  it('shows the four counts, how many items are shown of all, and each card', async () => {
    await openFeedbackTab();
    expect(within(await screen.findByRole('group', { name: 'Total Feedback' })).getByText('12')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Problems' })).getByText('5')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Suggestions' })).getByText('4')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Open Items' })).getByText('7')).toBeInTheDocument();
    expect(await screen.findByText('Showing 2 of 9 items')).toBeInTheDocument();

    const card = await feedbackCard('01JFEEDB');
    expect(within(card).getByText('#01JFEEDB')).toBeInTheDocument();
    expect(within(card).getByText('Problem')).toBeInTheDocument();
    expect(within(card).getByText('Open')).toBeInTheDocument();
    expect(within(card).getByText('Pat Lens · pat@example.com')).toBeInTheDocument();
    expect(within(card).getByText('Mar 5, 2025')).toBeInTheDocument();
    expect(within(card).getByText('The upload stalls at 90% on my phone.')).toBeInTheDocument();
    expect(within(card).queryByText(/^Reviewed/)).toBeNull();
    expect(
      within(await feedbackCard('01JSUGGE')).getByText('Reviewed by Ada Admin on Mar 6, 2025'),
    ).toBeInTheDocument();
  });

  it('offers Mark In Progress only on open items and Mark Resolved only on items in progress', async () => {
    await openFeedbackTab();
    const open = await feedbackCard('01JFEEDB');
    expect(within(open).getByRole('button', { name: 'Mark In Progress' })).toBeInTheDocument();
    expect(within(open).queryByRole('button', { name: 'Mark Resolved' })).toBeNull();
    const inProgress = await feedbackCard('01JSUGGE');
    expect(within(inProgress).getByRole('button', { name: 'Mark Resolved' })).toBeInTheDocument();
    expect(within(inProgress).queryByRole('button', { name: 'Mark In Progress' })).toBeNull();
  });

  it('asks the server for the chosen status and type', async () => {
    const { user } = await openFeedbackTab();
    await feedbackCard('01JFEEDB');
    expect(Object.fromEntries(fakeApi.requestsTo('GET', LIST_PATH)[0]?.query ?? [])).toEqual({
      status: 'all',
      type: 'all',
      page: '1',
      limit: '25',
    });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'In Progress');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'Suggestion');
    await waitFor(() =>
      expect(Object.fromEntries(fakeApi.requestsTo('GET', LIST_PATH).at(-1)?.query ?? [])).toEqual({
        status: 'in_progress',
        type: 'suggestion',
        page: '1',
        limit: '25',
      }),
    );
  });

  it('pages with the next cursor and back, and starts again at page one on a new filter', async () => {
    fakeApi.on('GET', LIST_PATH, (request: RecordedRequest) =>
      request.query.get('cursor') === 'after-page-1'
        ? listOf([suggestionInProgress], { total: 30, totalPages: 2 })
        : listOf([openProblem], { total: 30, totalPages: 2, nextCursor: 'after-page-1' }),
    );
    const { user } = await openFeedbackTab();
    await feedbackCard('01JFEEDB');
    const pages = screen.getByRole('navigation', { name: 'Pages of items' });
    expect(within(pages).getByText('Showing 1 of 30 items')).toBeInTheDocument();
    expect(within(pages).getByText('Page 1 of 2')).toBeInTheDocument();

    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    await feedbackCard('01JSUGGE');
    expect(Object.fromEntries(fakeApi.requestsTo('GET', LIST_PATH).at(-1)?.query ?? [])).toMatchObject({
      page: '2',
      cursor: 'after-page-1',
    });
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await feedbackCard('01JFEEDB');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await feedbackCard('01JSUGGE');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'Problem');
    await waitFor(() =>
      expect(Object.fromEntries(fakeApi.requestsTo('GET', LIST_PATH).at(-1)?.query ?? [])).toEqual({
        status: 'all',
        type: 'problem',
        page: '1',
        limit: '25',
      }),
    );
  });

  it('offers Next on a page that found nothing yet when the server says more follow', async () => {
    fakeApi.on('GET', LIST_PATH, listOf([], { total: 3, nextCursor: 'looked-through-600' }));
    await openFeedbackTab();
    expect(
      await screen.findByText('No matching feedback among the items this page looked through: Next looks further.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('No feedback found matching your filters.')).toBeNull();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });

  it('says when no feedback matches the filters', async () => {
    fakeApi.on('GET', LIST_PATH, listOf([], { total: 0 }));
    await openFeedbackTab();
    expect(await screen.findByText('No feedback found matching your filters.')).toBeInTheDocument();
  });

  it("says 'No statistics available' when the counts cannot be had", async () => {
    fakeApi.on('GET', STATS_PATH, { status: 500, body: { error: 'INTERNAL', message: 'Something went wrong' } });
    await openFeedbackTab();
    expect(await screen.findByText('No statistics available')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Total Feedback' })).toBeNull();
  });

  it("shows 'Error loading feedback' with the detail and a Reload Page button when the list fails", async () => {
    fakeApi.on('GET', LIST_PATH, { status: 403, body: { error: 'FORBIDDEN', message: 'Admins only' } });
    await openFeedbackTab();
    expect(await screen.findByText('Error loading feedback')).toBeInTheDocument();
    expect(screen.getByText('Admins only')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload Page' })).toBeInTheDocument();
  });

  it('marks an open item in progress without touching its notes, says so and refreshes the list and counts', async () => {
    fakeApi.on('PUT', `/api/feedback/${openProblem.id}`, (request) => ({
      status: 200,
      body: { ...openProblem, ...(request.body as object) },
    }));
    const { user } = await openFeedbackTab();
    const listCalls = fakeApi.requestsTo('GET', LIST_PATH).length;
    const statsCalls = fakeApi.requestsTo('GET', STATS_PATH).length;
    await user.click(within(await feedbackCard('01JFEEDB')).getByRole('button', { name: 'Mark In Progress' }));

    expect(await screen.findByText('Feedback updated successfully')).toBeInTheDocument();
    expect(fakeApi.requestsTo('PUT', `/api/feedback/${openProblem.id}`)[0]?.body).toEqual({ status: 'in_progress' });
    await waitFor(() => expect(fakeApi.requestsTo('GET', LIST_PATH).length).toBeGreaterThan(listCalls));
    await waitFor(() => expect(fakeApi.requestsTo('GET', STATS_PATH).length).toBeGreaterThan(statsCalls));
  });

  it('resolves an item in progress from its card', async () => {
    fakeApi.on('PUT', `/api/feedback/${suggestionInProgress.id}`, { status: 200, body: suggestionInProgress });
    const { user } = await openFeedbackTab();
    await user.click(within(await feedbackCard('01JSUGGE')).getByRole('button', { name: 'Mark Resolved' }));
    expect(await screen.findByText('Feedback updated successfully')).toBeInTheDocument();
    expect(fakeApi.requestsTo('PUT', `/api/feedback/${suggestionInProgress.id}`)[0]?.body).toEqual({
      status: 'resolved',
    });
  });

  it('saves any status with the admin notes from the details modal', async () => {
    fakeApi.on('PUT', `/api/feedback/${suggestionInProgress.id}`, { status: 200, body: suggestionInProgress });
    const { user } = await openFeedbackTab();
    await user.click(within(await feedbackCard('01JSUGGE')).getByRole('button', { name: 'View Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Feedback Details' });
    expect(within(dialog).getByText('Please add a dark mode.')).toBeInTheDocument();
    const notes = within(dialog).getByRole('textbox', { name: 'Admin notes' });
    expect(notes).toHaveValue('Planned for spring');
    expect(within(dialog).getByRole('combobox', { name: 'Status' })).toHaveValue('in_progress');

    await user.clear(notes);
    await user.type(notes, 'Shipped in 2.4');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Status' }), 'Closed');
    await user.click(within(dialog).getByRole('button', { name: 'Update Feedback' }));

    expect(await screen.findByText('Feedback updated successfully')).toBeInTheDocument();
    expect(fakeApi.requestsTo('PUT', `/api/feedback/${suggestionInProgress.id}`)[0]?.body).toEqual({
      status: 'closed',
      adminNotes: 'Shipped in 2.4',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Feedback Details' })).toBeNull());
  });

  it("keeps the modal open and shows the server's words when saving fails, else 'Failed to update feedback'", async () => {
    fakeApi.on('PUT', `/api/feedback/${openProblem.id}`, {
      status: 404,
      body: { error: 'NOT_FOUND', message: 'Feedback not found' },
    });
    fakeApi.on('PUT', `/api/feedback/${suggestionInProgress.id}`, { status: 500 });
    const { user } = await openFeedbackTab();
    await user.click(within(await feedbackCard('01JFEEDB')).getByRole('button', { name: 'View Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Feedback Details' });
    await user.click(within(dialog).getByRole('button', { name: 'Update Feedback' }));
    expect(await screen.findByText('Feedback not found')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Feedback Details' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await user.click(within(await feedbackCard('01JSUGGE')).getByRole('button', { name: 'Mark Resolved' }));
    expect(await screen.findByText('Failed to update feedback')).toBeInTheDocument();
  });
});
