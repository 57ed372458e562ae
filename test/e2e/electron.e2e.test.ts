/**
 * The same flows under Playwright's `_electron`, against the built app (out/main/index.js), where
 * Electron's binary is installed. Here (offline installs use ELECTRON_SKIP_BINARY_DOWNLOAD=1) it is
 * not, and the suite says so instead of pretending to pass.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { _electron as electron } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.ts';
import { SAMPLE_VAULT, TempDirs } from '../helpers/tmp.ts';
import { REPO, screenshot } from './harness.ts';

function electronBinary(): string | null {
  try {
    const p = createRequire(import.meta.url)('electron') as unknown;
    return typeof p === 'string' && fs.existsSync(p) ? p : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
const reason = "Electron's binary is not installed (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1); the web-mode specs cover these flows in Chromium";
if (!binary) console.warn(`[e2e] electron specs skipped: ${reason}`);
const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe.skipIf(!binary)(`desktop app under Electron${binary ? '' : ` (skipped: ${reason})`}`, () => {
  it('opens one locked-down window whose renderer reaches the engine only through window.synapsis', async () => {
    const dataDir = temp.make('electron-data-');
    const app = await electron.launch({ executablePath: binary!, args: [path.join(REPO, 'out', 'main', 'index.js')], env: { ...process.env, SYNAPSIS_DATA_DIR: dataDir } });
    try {
      const page = await app.firstWindow();
      await page.getByTestId('onboarding').waitFor();
      const exposed = await page.evaluate(() => ({
        bridge: typeof window.synapsis?.request,
        shell: window.synapsis?.shell,
        node: typeof (globalThis as { require?: unknown }).require,
        process: typeof (globalThis as { process?: unknown }).process,
      }));
      expect(exposed).toEqual({ bridge: 'function', shell: 'electron', node: 'undefined', process: 'undefined' });
      // Outbound requests are cancelled by the main process: air-gapped by construction.
      const blocked = await page.evaluate(() => fetch('https://example.com/').then(() => 'fetched', () => 'blocked'));
      expect(blocked).toBe('blocked');
      // The engine refuses what the UI does not use, and a folder the user did not pick in the dialog.
      const refused = await page.evaluate(async () => [
        await window.synapsis!.request('index/addRoot', { path: '/' }, {}),
        await window.synapsis!.request('graph/extract', {}, {}),
      ]);
      expect(refused.map((o) => (o.ok ? 'ok' : o.error.code))).toEqual(['E_SYN_BAD_REQUEST', 'E_SYN_BAD_REQUEST']);
      // The system folder dialog, answered with the sample vault: the pick is what lets the engine add it.
      await app.evaluate(({ dialog }, vault) => {
        dialog.showOpenDialog = (async () => ({ canceled: false, filePaths: [vault] })) as typeof dialog.showOpenDialog;
      }, SAMPLE_VAULT);
      await page.getByRole('button', { name: 'Browse…' }).click();
      await expect.poll(() => page.getByLabel('Folder path').inputValue()).toBe(SAMPLE_VAULT);
      await page.getByRole('button', { name: 'Add folder' }).click();
      await page.getByRole('button', { name: 'Start with search by words' }).click();
      await page.keyboard.press('Control+/');
      await page.locator('#search-input').fill('relay port');
      await page.getByTestId('result').first().waitFor({ timeout: 60_000 });
      await screenshot(page, 'electron-search');
    } finally {
      await app.close();
    }
  });

  it("reads an Obsidian vault as Obsidian shows it, and opens on its whole graph", async () => {
    const help = process.env.SYNAPSIS_OBSIDIAN_HELP ?? path.resolve(REPO, '..', 'corpora', 'obsidian-help', 'en');
    if (!fs.existsSync(path.join(help, 'Home.md'))) throw new Error(`Obsidian's help vault is not at ${help}: set SYNAPSIS_OBSIDIAN_HELP`);
    const vault = temp.make('electron-obsidian-');
    fs.cpSync(help, vault, { recursive: true });
    fs.mkdirSync(path.join(vault, '.obsidian'));
    const dataDir = temp.make('electron-obsidian-data-');
    const engine = createEngine({ dataDir, env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } });
    await engine.index([vault]);
    await engine.dispose();
    const app = await electron.launch({ executablePath: binary!, args: [path.join(REPO, 'out', 'main', 'index.js')], env: { ...process.env, SYNAPSIS_DATA_DIR: dataDir } });
    try {
      const page = await app.firstWindow();
      await page.locator('nav[aria-label=Main]').waitFor();
      await page.keyboard.press('Control+/');
      await page.locator('#search-input').fill('embed a note in another note');
      await page.locator('[data-testid=result]', { hasText: 'Linking notes and files/Embed files.md' }).first().click();
      const note = page.getByTestId('rendered-note');
      await note.locator('table.md-properties').waitFor();
      expect(await note.locator('details.callout[data-callout=tip]').count()).toBe(1);
      await note.locator('section.md-embed[data-embed="Internal links#^b15695"]').first().waitFor();
      expect(await page.getByTestId('open-in-obsidian').count()).toBe(1);
      await screenshot(page, 'electron-obsidian-reading');
      await page.keyboard.press('Escape');
      await page.keyboard.press('Alt+4');
      await expect.poll(() => page.getByTestId('global-caption').textContent(), { timeout: 60_000 }).toMatch(/All notes · 173 notes/);
      await screenshot(page, 'electron-obsidian-graph');
    } finally {
      await app.close();
    }
  });
});
