/**
 * The rough edges a review of the app in Chromium found (issue: "The app people keep open"): each
 * spec drives the built renderer over web mode and asserts what a person sees, with a screenshot of
 * each state in test-results/screenshots/edges-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../helpers/tmp.ts';
import { launchChromium, openApp, screenshot, UI_DIR, type App } from './harness.ts';

const temp = new TempDirs();
let browser: Browser;

beforeAll(async () => {
  if (!fs.existsSync(path.join(UI_DIR, 'index.html'))) throw new Error(`${UI_DIR} is missing: npm run test:e2e builds it first`);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  temp.cleanup();
});

const opened: App[] = [];
async function open(options?: Parameters<typeof openApp>[2]): Promise<App> {
  const app = await openApp(browser, temp, options);
  opened.push(app);
  return app;
}
afterEach(async () => {
  for (const app of opened.splice(0)) {
    const origin = `http://127.0.0.1:${app.server.port}`;
    expect(app.requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'))).toEqual([]);
    await app.close();
  }
});

describe('rough edges in web mode', () => {
  it('Esc closes a search result preview and keeps the query and its results', async () => {
    const { page } = await open({ indexFirst: true });
    await page.keyboard.press('Control+/');
    await page.locator('#search-input').fill('relay port');
    await page.getByTestId('result').first().waitFor();
    const before = await page.locator('.result__loc').allTextContents();
    await page.locator('#search-input').press('Enter');
    await page.getByTestId('source-preview').locator('.code__line--cited').first().waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('source-preview').count()).toBe(0);
    expect(await page.locator('#search-input').inputValue()).toBe('relay port');
    expect(await page.locator('.result__loc').allTextContents()).toEqual(before);
    await screenshot(page, 'edges-01-esc-keeps-search');
    // With no preview open, Esc in the field still clears it, as a search field does.
    await page.locator('#search-input').press('Escape');
    expect(await page.locator('#search-input').inputValue()).toBe('');
  });
});
