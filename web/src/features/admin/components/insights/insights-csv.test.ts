import { describe, expect, it } from 'vitest';
import { sortEditors } from './editor-sorting';
import { insightsCsv, insightsCsvFileName } from './insights-csv';
import { anInsightEditor, anInsightsView } from './insights-test-view';

/** The CSV's sections by title: each a header row and its rows, fields unquoted. */
function sectionsOf(csv: string) {
  expect(csv.startsWith('\uFEFF'), 'a byte-order mark first, for spreadsheets').toBe(true);
  expect(csv.endsWith('\r\n')).toBe(true);
  const blocks = csv.slice(1).trimEnd().split('\r\n\r\n');
  return Object.fromEntries(
    blocks.map((block) => {
      const [title = '', ...rows] = block.split('\r\n');
      return [title.split(',')[0] ?? '', rows];
    }),
  );
}

describe('The Insights CSV', () => {
  it('names the range, the zone and the days first', () => {
    const { Insights } = sectionsOf(insightsCsv(anInsightsView()));
    expect(Insights).toEqual(['Time zone,Europe/Berlin', 'From,2025-03-05', 'To,2025-03-11']);
  });

  it('has the totals with money in dollars, shares in percent and hours', () => {
    const { Totals } = sectionsOf(insightsCsv(anInsightsView()));
    expect(Totals).toEqual([
      'Figure,Value',
      'Gross (USD),1280.00',
      'Refunds (USD),80.00',
      'Net (USD),1200.00',
      'Orders paid,12',
      'Orders completed,16',
      'Completed within 48 h,14',
      'Within 48 h (%),87.5',
      'Turnaround p50 (h),21.5',
      'Turnaround p90 (h),46.3',
      'Revision requests,2',
      'Revision rate (%),12.5',
    ]);
  });

  it('has every day, a refund-only day as a negative net', () => {
    const { Days } = sectionsOf(insightsCsv(anInsightsView()));
    expect(Days?.[0]).toBe('Date,Gross (USD),Refunds (USD),Net (USD),Orders paid,Orders completed');
    expect(Days).toHaveLength(8);
    expect(Days).toContain('2025-03-05,480.00,0.00,480.00,5,4');
    expect(Days).toContain('2025-03-09,0.00,80.00,-80.00,0,0');
  });

  it('sums the days into the weeks the turnaround is measured in, the first one partial', () => {
    const { Weeks } = sectionsOf(insightsCsv(anInsightsView()));
    expect(Weeks).toEqual([
      'Week starting,Gross (USD),Refunds (USD),Net (USD),Orders paid,Orders completed,Turnaround p50 (h),Turnaround p90 (h),Within 48 h (%)',
      '2025-03-05,480.00,80.00,400.00,5,6,20,40,100',
      '2025-03-10,800.00,0.00,800.00,7,10,22.5,50,80',
    ]);
  });

  it('leaves a week with nothing completed empty rather than zero', () => {
    const view = anInsightsView({
      weeks: [
        {
          weekStart: '2025-03-05',
          completed: 0,
          turnaroundP50Hours: null,
          turnaroundP90Hours: null,
          withinPromiseShare: null,
        },
      ],
    });
    expect(sectionsOf(insightsCsv(view)).Weeks).toContain('2025-03-05,480.00,80.00,400.00,5,0,,,');
  });

  it('has the job types with their share, and the pool through the day in the admin’s hours', () => {
    const sections = sectionsOf(insightsCsv(anInsightsView()));
    expect(sections['Job types']).toEqual(['Job type,Orders paid,Share (%)', 'HDR,9,75', 'Virtual Twilight,3,25']);
    expect(sections['Open pool by hour of day']).toEqual([
      'Hour (Europe/Berlin),Average depth,Peak depth',
      '03:00,0,0',
      '14:00,4,5',
    ]);
  });

  it('has the editors in the order on screen, names quoted where they need it', () => {
    const view = anInsightsView();
    const { Editors } = sectionsOf(
      insightsCsv(view, sortEditors(view.editors, { key: 'name', direction: 'ascending' })),
    );
    expect(Editors).toEqual([
      'Editor,Completed,Average rating (of 10),Ratings,Average turnaround (h),Late,Earnings (USD)',
      'Ana Retouch,5,4.8,4,20.5,0,50.00',
      '"Ben, the ""Fixer""",3,,0,30,1,30.00',
      'Cleo Lines,8,4.25,6,44.3,2,90.00',
    ]);
  });

  it('keeps an editor named like a formula as text', () => {
    const view = anInsightsView({ editors: [anInsightEditor({ name: '=1+1' })] });
    expect(sectionsOf(insightsCsv(view)).Editors?.[1]).toBe("'=1+1,5,4.8,4,20.5,0,50.00");
  });

  it('is named for the range and the last day shown', () => {
    expect(insightsCsvFileName(anInsightsView())).toBe('insights-7-days-2025-03-11.csv');
  });
});
