import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  viewports,
  waitForPath,
  webUrl,
} from './browser';

describe('Reporting a problem', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('submits feedback, confirms it, lists it and returns to the form', async () => {
    const { page, context } = await openPage(browser);
    await signIn(page, 'photographer@example.com');
    await waitForPath(page, '/dashboard');
    await page.goto(`${webUrl}/feedback`);
    await page.getByRole('heading', { name: 'Report a Problem or Suggestion' }).waitFor();

    await page.getByRole('textbox', { name: 'Message' }).fill('  too short ');
    await page.getByRole('button', { name: 'Submit Feedback' }).click();
    await page.getByText('Message must be at least 10 characters long').waitFor();
    await screenshot(page, 'feedback-validation-desktop');
    await expectAccessible(page);

    const message = `The upload page froze on order ${Date.now()} after the third photo.`;
    await page.getByRole('combobox', { name: 'Type' }).selectOption('problem');
    await page.getByRole('textbox', { name: 'Message' }).fill(message);
    await page.getByRole('button', { name: 'Submit Feedback' }).click();

    await page.getByRole('heading', { name: 'Feedback Submitted!' }).waitFor();
    expect(await page.getByText('Thank you! Your feedback has been submitted successfully.').isVisible()).toBe(true);
    // The new report shows in the user's own list straight away.
    await page.getByText(message).waitFor();
    await screenshot(page, 'feedback-submitted-desktop');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Submit More Feedback' }).click();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('');
    await context.close();
  });

  it('fits the feedback page on a phone', async () => {
    const { page, context } = await openPage(browser, 'phone');
    await signIn(page, 'photographer@example.com');
    await waitForPath(page, '/dashboard');
    await page.goto(`${webUrl}/feedback`);
    await page.getByRole('heading', { name: 'Report a Problem or Suggestion' }).waitFor();
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth).toBeLessThanOrEqual(viewports.phone.width);
    await screenshot(page, 'feedback-phone');
    await expectAccessible(page);
    await context.close();
  });
});
