import { readFileSync } from 'node:fs';
import type { InsightsView } from '@marketplace/events/insights';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, aUserWithRoles, waitFor } from '../../services/test/support';
import { formatMoney } from '../src/lib/format-money';
import { anOrderPaidByCard, signInAsAdmin, uniqueWord } from './admin-setup';
import { expectSettledAccessible, launchBrowser, pageFitsWidth, screenshot, viewports } from './browser';
import { aCompletedOrder, aSignedUpPhotographer } from './orders-setup';

/** The admin's zone in this test: not the machine's, so the tab must send the browser's own. */
const timeZone = 'Europe/Berlin';

const isInsightsCall = (response: Response, range: string) => {
  const url = new URL(response.url());
  return url.pathname === '/api/admin/insights' && url.searchParams.get('range') === range;
};

/** The tab's own answer for a range: what the page shows must be this. */
const insightsAnswer = async (page: Page, range: string, trigger: () => Promise<unknown>) => {
  const [response] = await Promise.all([page.waitForResponse((r) => isInsightsCall(r, range)), trigger()]);
  expect(response.status()).toBe(200);
  expect(new URL(response.url()).searchParams.get('tz')).toBe(timeZone);
  return (await response.json()) as InsightsView;
};

const statValue = (page: Page, label: string) =>
  page.getByRole('group', { name: label, exact: true }).locator('p').nth(1).innerText();

const chooseRange = (page: Page, days: string) =>
  // The segmented control's radios are hidden under their labels, which take the click.
  page
    .getByRole('radiogroup', { name: 'Range' })
    .getByText(`${days} days`, { exact: true })
    .click();

describe('The admin reads the Insights tab', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('sees the charts and their tables, switches the range, sorts the editors and exports the CSV, at 1280 and 390 px', async () => {
    // Today's figures: two orders paid by card, and one an editor delivered, through the app's own writes.
    const word = uniqueWord();
    const photographer = await aSignedUpPhotographer(`Lumen ${word} Photography`);
    const editorName = `Iris ${word} Insight`;
    const editor = await aUserWithRoles(['editor'], { displayName: editorName });
    const admin = await aUserWithRoles(['admin']);
    const before = (await as(admin).get(`/api/admin/insights?range=7&tz=${encodeURIComponent(timeZone)}`))
      .body as InsightsView;
    const paid = await Promise.all(
      ['Alder', 'Birch'].map((name) => anOrderPaidByCard({ photographer, name: `${name} ${word}`, photoCount: 3 })),
    );
    await aCompletedOrder({
      photographer,
      name: `Cedar ${word}`,
      editedFiles: [{ name: 'kitchen.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('edited') }],
      editor: { userId: editor.uid, name: editorName, email: editor.email },
    });
    const seededGross = paid.reduce((sum, order) => sum + order.totalAmountCents, 0);
    // The rollups follow the events (outbox, event log, insights queue): wait until they hold this test's orders.
    const seeded = await waitFor(
      async () =>
        (await as(admin).get(`/api/admin/insights?range=7&tz=${encodeURIComponent(timeZone)}`)).body as InsightsView,
      (view) =>
        view.totals.ordersPaid >= before.totals.ordersPaid + 3 &&
        view.totals.grossCents >= before.totals.grossCents + seededGross &&
        view.editors.some((row) => row.name === editorName),
      60_000,
    );
    expect(seeded.editors.find((row) => row.name === editorName)?.completed).toBe(1);

    const context = await browser.newContext({ viewport: viewports.desktop, timezoneId: timeZone });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await signInAsAdmin(page);
    await page.getByRole('tab', { name: 'Orders' }).waitFor();
    // The charts come with the Insights tab only: the console's first load does not fetch them.
    expect(scripts.filter((script) => /Insights|recharts|charts/i.test(script))).toEqual([]);

    const month = await insightsAnswer(page, '30', () => page.getByRole('tab', { name: 'Insights' }).click());
    expect(scripts.some((script) => script.includes('InsightsTab'))).toBe(true);
    await page.getByText(`Days in ${timeZone}`).waitFor();
    expect(await statValue(page, 'Gross')).toBe(formatMoney(month.totals.grossCents));
    expect(await statValue(page, 'Orders paid')).toBe(month.totals.ordersPaid.toLocaleString('en-US'));
    for (const name of [
      'Revenue per day',
      'Orders paid per day',
      'Turnaround and the 48 h promise',
      'Job type mix',
      'Open pool through the day',
    ]) {
      await page.getByRole('img', { name, exact: true }).waitFor();
    }
    // Each chart draws (an SVG with its marks), and its table of figures is there for screen readers.
    expect(await page.locator('.recharts-bar-rectangle').count()).toBeGreaterThan(0);
    expect(await page.locator('.recharts-area-area').count()).toBeGreaterThan(0);
    expect(await page.getByRole('table', { name: /^Revenue per day, / }).count()).toBe(1);
    expect(await page.getByRole('table', { name: /^Orders paid and completed per day, / }).count()).toBe(1);
    expect(await page.getByRole('table', { name: /^Turnaround per week, / }).count()).toBe(1);
    expect(await page.getByRole('table', { name: /^Orders paid per job type, / }).count()).toBe(1);
    expect(await page.getByRole('table', { name: /^Open pool by hour of day \(Europe\/Berlin\)/ }).count()).toBe(1);
    await page.waitForTimeout(300);
    await screenshot(page, 'admin-insights-desktop');
    await expectSettledAccessible(page, '/admin (insights)');

    // The revenue table on screen: its last row is today, as the route counted it.
    const revenue = page.getByRole('region', { name: 'Revenue per day', exact: true });
    await revenue.getByRole('button', { name: 'Show as table' }).click();
    const revenueTable = page.getByRole('region', { name: /^Revenue per day, / }).getByRole('table');
    await revenueTable.waitFor();
    const today = month.days.at(-1);
    if (!today) throw new Error('no days in the view');
    expect(today.date).toBe(month.to);
    expect(await revenueTable.getByRole('row').last().innerText()).toContain(formatMoney(today.grossCents));
    await screenshot(page, 'admin-insights-table-desktop');
    await expectSettledAccessible(page, '/admin (insights, revenue table shown)');

    // Another range is another request, and the figures follow it.
    const week = await insightsAnswer(page, '7', () => chooseRange(page, '7'));
    expect(week.range).toBe('7');
    expect(week.days).toHaveLength(7);
    await expect.poll(() => statValue(page, 'Gross')).toBe(formatMoney(week.totals.grossCents));

    // The editor table: this test's editor is there, and a heading sorts it.
    const editors = page.getByRole('table', { name: 'Editors', exact: true });
    const editorRow = editors.getByRole('row').filter({ hasText: editorName });
    await editorRow.waitFor();
    await editors.getByRole('button', { name: 'Earnings' }).click();
    expect(await editors.getByRole('columnheader', { name: 'Earnings' }).getAttribute('aria-sort')).toBe('descending');
    const earnings = await editors
      .getByRole('row')
      .evaluateAll((rows) =>
        rows.slice(1).map((row) => Number((row.lastElementChild?.textContent ?? '').replace(/[$,]/g, ''))),
      );
    expect(earnings).toEqual([...earnings].sort((a, b) => b - a));

    // The CSV is what is shown: the 7 days in Berlin, with the totals and this test's editor.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`insights-7-days-${week.to}.csv`);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.startsWith('\uFEFFInsights,Last 7 days\r\nTime zone,Europe/Berlin\r\n')).toBe(true);
    expect(csv).toContain(`\r\nGross (USD),${(week.totals.grossCents / 100).toFixed(2)}\r\n`);
    expect(csv).toContain(`\r\nOrders paid,${week.totals.ordersPaid}\r\n`);
    expect(csv).toMatch(new RegExp(`\\r\\n${editorName},1,`));

    // A phone: charts fit, the editor table scrolls inside its own box, nothing on the page scrolls sideways.
    await page.setViewportSize(viewports.phone);
    await page.waitForTimeout(400);
    expect(await pageFitsWidth(page), 'the Insights tab fits a 390 px phone').toBe(true);
    const editorScroll = page.getByRole('region', { name: 'Editor table', exact: true });
    const { scrollWidth, clientWidth } = await editorScroll.evaluate((box) => ({
      scrollWidth: box.scrollWidth,
      clientWidth: box.clientWidth,
    }));
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    for (const chart of await page.locator('[role="img"][aria-describedby]').all()) {
      const box = await chart.boundingBox();
      if (box) expect(box.x + box.width, 'a chart fits the phone').toBeLessThanOrEqual(viewports.phone.width);
    }
    await screenshot(page, 'admin-insights-phone');
    await expectSettledAccessible(page, '/admin (insights) on a phone');
    await context.close();
  }, 240_000);
});
