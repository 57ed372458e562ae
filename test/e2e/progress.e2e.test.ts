import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GatedEmbedder } from '../helpers/gated-embedder.ts';
import { screenshot, webSuite } from './harness.ts';

/** After each spec, every request its pages made went to the server that served them (webSuite checks). */
const { open } = webSuite();

describe('indexing progress in web mode', () => {
  it('the folder row, the sidebar and Settings say what runs: embedding, paused, resumed, then up to date with no ETA left', async () => {
    const embedder = new GatedEmbedder(64);
    const app = await open({ embedder });
    try {
      const { page } = app;
      const badge = page.getByTestId('index-badge').locator('.index-badge__text');
      const row = page.getByTestId('root-progress');
      const firstBatch = embedder.nextBatch();
      await page.getByTestId('onboarding').waitFor();
      await page.getByLabel('Folder path').fill(app.vault);
      await page.getByRole('button', { name: 'Add folder' }).click();
      await page.getByText(`✓ ${fs.realpathSync(app.vault)}`).waitFor();
      await page.getByRole('button', { name: /^Start( with search by words)?$/ }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Library/ }).click();
      await firstBatch;

      // Words indexed, passages embedding: the folder row says so (not "Up to date"), and so does the sidebar.
      await row.and(page.locator('[data-stage=passages][data-state=running]')).waitFor({ timeout: 30_000 });
      expect(await row.textContent()).toMatch(/^Embedding passages · 0 \/ [\d,]+ passages · ETA when measured$/);
      await expect.poll(() => badge.textContent()).toMatch(/^Embedding passages · 0 \/ [\d,]+ passages/);
      await screenshot(page, 'progress-01-embedding');

      // Pause: the batch in flight ends, then everything says paused with what waits; no rate, no ETA.
      await page.getByRole('button', { name: 'Pause' }).click();
      embedder.hold();
      embedder.letThrough();
      embedder.hold();
      await row.and(page.locator('[data-state=paused]')).waitFor({ timeout: 30_000 });
      await expect.poll(() => badge.textContent()).toMatch(/^Paused: Embedding passages/);
      await expect.poll(async () => (await row.textContent()) ?? '').toMatch(/^Paused: Embedding passages · ([\d,]+ \/ [\d,]+ passages|[\d,]+ passages left)$/);
      await screenshot(page, 'progress-02-paused');

      // Resume with the next batch held: the sidebar says indexing goes on (not "Watching"), at once.
      const resumedBatch = embedder.nextBatch();
      await page.getByRole('button', { name: 'Resume indexing' }).click();
      await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toMatch(/^(Embedding passages|Indexing words|Scanning for changes|Waiting: Embedding passages)/);
      await resumedBatch;
      await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toMatch(/^Embedding passages · \d+ \/ [\d,]+ passages/);
      expect(await badge.textContent()).not.toMatch(/Watching/);
      // The same numbers in Library, sidebar and Settings.
      const libraryText = await row.textContent();
      expect(await badge.textContent()).toBe(libraryText);
      await screenshot(page, 'progress-03-resumed');
      await page.keyboard.press('Alt+5');
      await expect.poll(() => page.getByTestId('settings-progress').textContent()).toBe(`Indexing: ${libraryText}`);
      await screenshot(page, 'progress-04-settings');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Library/ }).click();

      // Let it finish: up to date everywhere, and no ETA line left behind.
      embedder.letThrough();
      await row.and(page.locator('[data-stage=done]')).waitFor({ timeout: 60_000 });
      await expect.poll(() => badge.textContent(), { timeout: 30_000 }).toMatch(/^(Watching for changes|Up to date)$/);
      expect(await page.getByText(/ETA/).count()).toBe(0);
      expect(await row.textContent()).toBe('Up to date');
      await page.keyboard.press('Alt+5');
      await expect.poll(() => page.getByTestId('settings-progress').textContent()).toBe('Indexing: Up to date');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Library/ }).click();
      await screenshot(page, 'progress-05-done');
    } finally {
      // A run held at the gate would keep the engine from closing.
      embedder.letThrough();
      await app.close();
    }
  });
});
