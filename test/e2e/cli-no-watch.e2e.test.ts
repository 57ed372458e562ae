/**
 * `synapsis web --no-watch`, the real command: a folder added in the page is indexed once and never
 * watched, the page says so, and a file written afterwards waits for "Re-scan now".
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_VAULT } from '../helpers/tmp.ts';
import { commandSuite, REPO, screenshot, startServer } from './harness.ts';

const { temp, browser: chromiumBrowser } = commandSuite();

describe('synapsis web --no-watch', () => {
  it('never watches: the page says so and a new file waits for a re-scan', async () => {
    const vault = temp.make('no-watch-vault-');
    fs.cpSync(path.join(SAMPLE_VAULT, 'decisions'), path.join(vault, 'decisions'), { recursive: true });
    const dataDir = temp.make('no-watch-data-');
    const server = await startServer<{ url: string }>(process.execPath, [path.join(REPO, 'bin', 'synapsis.js'), 'web', '--no-watch', '--port', '0', '--json', '--data-dir', dataDir]);
    const page = await chromiumBrowser().newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(server.info.url);
      await page.getByTestId('onboarding').waitFor({ timeout: 30_000 });
      await page.getByLabel('Folder path').fill(vault);
      await page.getByRole('button', { name: 'Add folder' }).click();
      await page.getByText(`✓ ${fs.realpathSync(vault)}`).waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Start with search by words' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Library/ }).click();
      await page.getByTestId('root-progress').and(page.locator('[data-stage=done]')).waitFor({ timeout: 60_000 });
      await page.getByTestId('not-watching').waitFor({ timeout: 30_000 });
      await page.getByText(/^7 documents · \d+ passages/).waitFor({ timeout: 30_000 });
      await expect.poll(() => page.getByTestId('index-badge').textContent(), { timeout: 30_000 }).toMatch(/not watching/);
      expect(await page.locator('main').textContent()).not.toMatch(/watching for changes(?! \()/);
      await screenshot(page, 'edges-07-no-watch');
      // A new file: not indexed while the server runs (a watcher would pick it up in about a second)…
      fs.writeFileSync(path.join(vault, 'decisions', 'Zanzibar codename.md'), '# Zanzibar codename\n\nThe quokkaplan is the codename of the 2027 roadmap.\n');
      await page.waitForTimeout(4000);
      await page.keyboard.press('Control+/');
      await page.locator('#search-input').fill('quokkaplan');
      await page.getByTestId('search-meta').getByText(/No passage matches/).waitFor({ timeout: 30_000 });
      // …until Re-scan now.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Library/ }).click();
      await page.getByRole('button', { name: 'Re-scan now' }).click();
      await page.getByTestId('last-report').getByText(/Last run: 1 indexed/).waitFor({ timeout: 60_000 });
      await page.keyboard.press('Control+/');
      await page.locator('#search-input').fill('quokkaplan codename');
      await page.getByTestId('result').first().waitFor({ timeout: 30_000 });
    } finally {
      await page.close();
      await server.stop();
    }
  });
});
