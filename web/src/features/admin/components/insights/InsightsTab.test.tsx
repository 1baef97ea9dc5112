import type { InsightsView } from '@marketplace/events/insights';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, type RecordedRequest } from '../../../../test/fake-api';
import { fakeFirebase } from '../../../../test/fake-firebase-auth';
import { aMeView } from '../../../../test/me-view';
import { renderApp } from '../../../../test/render-app';
import { anInsightsView } from './insights-test-view';

const INSIGHTS_PATH = '/api/admin/insights';
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The route's answer for the asked range, in the fixture's Berlin days. */
const answerFor = (view: (request: RecordedRequest) => InsightsView) => (request: RecordedRequest) => ({
  status: 200,
  body: view(request),
});
const fixtureForRange = answerFor((request) =>
  anInsightsView({ range: (request.query.get('range') ?? '30') as InsightsView['range'] }),
);

async function openInsightsTab() {
  const view = renderApp('/admin?tab=insights');
  await screen.findByRole('heading', { name: 'Admin Dashboard' });
  // The tab's code and the charts load on demand; the first load in a run can take a while.
  await screen.findByRole('radiogroup', { name: 'Range' }, { timeout: 15_000 });
  return view;
}

const statValue = async (label: string) => within(await screen.findByRole('group', { name: label }));
const editorTable = () => within(screen.getByRole('table', { name: 'Editors' }));
const editorNames = () =>
  within(screen.getByRole('table', { name: 'Editors' }))
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent);

describe('Insights tab', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'admin@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: 'admin@example.com', roles: ['admin'] }) });
    fakeApi.on('GET', '/api/admin/users', { status: 200, body: { users: [] } });
    fakeApi.on('GET', INSIGHTS_PATH, fixtureForRange);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('asks for the last 30 of the admin’s own days and shows the figures beside the charts', async () => {
    await openInsightsTab();
    expect((await statValue('Gross')).getByText('$1,280.00')).toBeInTheDocument();
    expect((await statValue('Refunds')).getByText('$80.00')).toBeInTheDocument();
    expect((await statValue('Net')).getByText('$1,200.00')).toBeInTheDocument();
    expect((await statValue('Orders paid')).getByText('12')).toBeInTheDocument();
    expect((await statValue('Orders completed')).getByText('16')).toBeInTheDocument();
    expect((await statValue('Within 48 h')).getByText('87.5%')).toBeInTheDocument();
    expect((await statValue('Turnaround p50')).getByText('21.5 h')).toBeInTheDocument();
    expect((await statValue('Turnaround p90')).getByText('46.3 h')).toBeInTheDocument();
    expect((await statValue('Revision rate')).getByText('12.5%')).toBeInTheDocument();
    expect(screen.getByText(`Days in ${browserZone}`)).toBeInTheDocument();
    const [request] = fakeApi.requestsTo('GET', INSIGHTS_PATH);
    expect(Object.fromEntries(request?.query ?? [])).toEqual({ range: '30', tz: browserZone });
  });

  it('shows on-time delivery per turnaround tier: delivered, on time and the share', async () => {
    await openInsightsTab();
    const table = within(await screen.findByRole('table', { name: 'On time by turnaround' }));
    const rows = table
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(table.getAllByRole('rowheader').map((cell) => cell.textContent)).toEqual([
      'Standard (48 h)',
      'Express (24 h)',
      'Rush (12 h)',
    ]);
    expect(rows).toEqual([
      ['12', '11', '91.7%'],
      ['4', '3', '75%'],
      ['0', '0', '—'],
    ]);
  });

  it('gives each chart a name and the table of its figures, for screen readers and on request', async () => {
    const { user } = await openInsightsTab();
    const revenueCaption = 'Revenue per day, Mar 5, 2025 to Mar 11, 2025 (Europe/Berlin)';
    const chart = await screen.findByRole('img', { name: 'Revenue per day' });
    expect(chart).toHaveAccessibleDescription(revenueCaption);
    const table = screen.getByRole('table', { name: revenueCaption });
    expect(within(table).getByRole('row', { name: 'Mar 9, 2025 $0.00 $80.00 -$80.00' })).toBeInTheDocument();

    for (const name of [
      'Orders paid per day',
      'Turnaround and the 48 h promise',
      'Job type mix',
      'Add-on revenue',
      'Open pool through the day',
    ]) {
      expect(screen.getByRole('img', { name })).toBeInTheDocument();
    }
    const turnaround = screen.getByRole('table', { name: /^Turnaround per week/ });
    expect(within(turnaround).getByRole('row', { name: 'Mar 10, 2025 10 22.5 h 50 h 80%' })).toBeInTheDocument();
    const jobTypes = screen.getByRole('table', { name: /^Orders paid per job type/ });
    expect(within(jobTypes).getByRole('row', { name: 'HDR 9 75%' })).toBeInTheDocument();
    const addOns = screen.getByRole('table', { name: /^Add-on revenue/ });
    expect(within(addOns).getByRole('row', { name: 'Virtual staging 5 $120.00' })).toBeInTheDocument();
    expect(within(addOns).getByRole('row', { name: 'Sky replacement 9 $18.00' })).toBeInTheDocument();
    const pool = screen.getByRole('table', { name: /^Open pool by hour of day \(Europe\/Berlin\)/ });
    expect(within(pool).getByRole('row', { name: '14:00 4 5' })).toBeInTheDocument();
    expect(screen.getByText(/Deepest: 5 at 14:00/)).toBeInTheDocument();

    const [showRevenueTable] = screen.getAllByRole('button', { name: 'Show as table' });
    if (!showRevenueTable) throw new Error('no Show as table button');
    expect(showRevenueTable).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByRole('region', { name: revenueCaption })).toBeNull();
    await user.click(showRevenueTable);
    expect(showRevenueTable).toHaveAttribute('aria-pressed', 'true');
    expect(within(screen.getByRole('region', { name: revenueCaption })).getByRole('table')).toBe(table);
  });

  it("shows the platform's take per day: delivered orders' price less their editors' earnings", async () => {
    await openInsightsTab();
    expect((await statValue("Platform's take")).getByText('$410.00')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: /^Platform's take per day, / });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(8);
    expect(rows[1]).toHaveTextContent('$300.00');
    expect(rows[1]).toHaveTextContent('$120.00');
    expect(rows[1]).toHaveTextContent('$180.00');
    expect(rows[3]).toHaveTextContent('$0.00');
  });

  it('sums revenue per week on request', async () => {
    const { user } = await openInsightsTab();
    await screen.findByRole('img', { name: 'Revenue per day' });
    await user.click(screen.getByRole('radio', { name: 'Per week' }));
    const table = await screen.findByRole('table', { name: /^Revenue per week/ });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['Week startingGrossRefundsNet', 'Mar 5, 2025$480.00$80.00$400.00', 'Mar 10, 2025$800.00$0.00$800.00']);
  });

  it('asks again for the range the admin chooses', async () => {
    const { user } = await openInsightsTab();
    await statValue('Gross');
    await user.click(screen.getByRole('radio', { name: '7 days' }));
    await waitFor(() => expect(fakeApi.requestsTo('GET', INSIGHTS_PATH)).toHaveLength(2));
    expect(fakeApi.requestsTo('GET', INSIGHTS_PATH)[1]?.query.get('range')).toBe('7');
    await user.click(screen.getByRole('radio', { name: '90 days' }));
    await waitFor(() => expect(fakeApi.requestsTo('GET', INSIGHTS_PATH)).toHaveLength(3));
    expect(fakeApi.requestsTo('GET', INSIGHTS_PATH)[2]?.query.get('range')).toBe('90');
    // Ninety days of daily bars are too thin to read: revenue comes per week unless the admin chooses days.
    expect(await screen.findByRole('img', { name: 'Revenue per week' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled());
  });

  it('sorts the editor table by the column heading chosen, and the other way round when chosen again', async () => {
    const { user } = await openInsightsTab();
    await screen.findByRole('table', { name: 'Editors' });
    expect(editorNames()).toEqual(['Cleo Lines', 'Ana Retouch', 'Ben, the "Fixer"']);
    expect(editorTable().getByRole('columnheader', { name: 'Completed' })).toHaveAttribute('aria-sort', 'descending');

    await user.click(screen.getByRole('button', { name: 'Average turnaround' }));
    expect(editorTable().getByRole('columnheader', { name: 'Average turnaround' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    expect(editorTable().getByRole('columnheader', { name: 'Completed' })).toHaveAttribute('aria-sort', 'none');
    expect(editorNames()).toEqual(['Cleo Lines', 'Ben, the "Fixer"', 'Ana Retouch']);

    // From the keyboard: the heading's button takes Enter.
    screen.getByRole('button', { name: 'Average turnaround' }).focus();
    await user.keyboard('{Enter}');
    expect(editorTable().getByRole('columnheader', { name: 'Average turnaround' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    expect(editorNames()).toEqual(['Ana Retouch', 'Ben, the "Fixer"', 'Cleo Lines']);
    expect(screen.getByText(/Sorted by average turnaround, lowest first/)).toBeInTheDocument();

    const rows = within(screen.getByRole('table', { name: 'Editors' })).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Ana Retouch54.8/10 (4 ratings)20.5 h0$50.00');
    expect(rows[2]).toHaveTextContent('Ben, the "Fixer"3—30 h1$30.00');
  });

  it('exports what is shown as one CSV named for the range and the day', async () => {
    const files: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((file) => {
      files.push(file as Blob);
      return 'blob:insights';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    const { user } = await openInsightsTab();
    await user.click(await screen.findByRole('button', { name: 'Earnings' }));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    expect(downloads).toEqual(['insights-30-days-2025-03-11.csv']);
    const csv = await files[0]?.text();
    expect(files[0]?.type).toBe('text/csv;charset=utf-8');
    expect(csv).toContain('Insights,Last 30 days\r\nTime zone,Europe/Berlin');
    expect(csv).toContain('Gross (USD),1280.00');
    const editors = csv?.split('Editors\r\n')[1]?.trim().split('\r\n');
    expect(editors?.map((row) => row.split(',')[0])).toEqual(['Editor', 'Cleo Lines', 'Ana Retouch', '"Ben']);
  });

  it('says so when nothing sold in the range, with no charts, and offers the longest range', async () => {
    const quiet = anInsightsView({
      range: '30',
      totals: {
        ...anInsightsView().totals,
        grossCents: 0,
        refundsCents: 0,
        netCents: 0,
        ordersPaid: 0,
        ordersCompleted: 0,
      },
      poolDepth: [],
      editors: [],
    });
    fakeApi.on('GET', INSIGHTS_PATH, (request) =>
      request.query.get('range') === '90' ? fixtureForRange(request) : { status: 200, body: quiet },
    );
    const { user } = await openInsightsTab();
    expect(await screen.findByRole('heading', { name: 'No sales in the last 30 days' })).toBeInTheDocument();
    expect(
      screen.getByText(/Nothing was paid, completed or refunded from Mar 5, 2025 to Mar 11, 2025/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Show the last 90 days' }));
    expect(await screen.findByRole('img', { name: 'Revenue per week' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '90 days' })).toBeChecked();
  });

  it('shows what went wrong and tries again on request', async () => {
    fakeApi.on('GET', INSIGHTS_PATH, { status: 403, body: { error: 'FORBIDDEN', message: 'Admins only' } });
    const { user } = await openInsightsTab();
    expect(await screen.findByText('Could not load the insights')).toBeInTheDocument();
    expect(screen.getByText('Admins only')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();

    fakeApi.on('GET', INSIGHTS_PATH, fixtureForRange);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await statValue('Gross')).getByText('$1,280.00')).toBeInTheDocument();
  });
});
