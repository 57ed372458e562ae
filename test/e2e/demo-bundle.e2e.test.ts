/**
 * `npm run demo:bundle` writes a folder that runs by itself: here it is written to a temp folder
 * (outside the repository, so nothing resolves from the checkout's node_modules), started with its
 * own start.sh, and its page searched and asked in Chromium.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandSuite, REPO, screenshot, startServer } from './harness.ts';

const { temp, browser: chromiumBrowser } = commandSuite();

describe('the portable demo bundle', () => {
  it('is one folder with the program, its packages, the vault and a start script, and it runs from anywhere', async () => {
    const out = path.join(temp.make('bundle-'), 'synapsis-demo');
    const noModels = temp.make('bundle-models-');
    execFileSync(process.execPath, [path.join(REPO, 'scripts', 'demo-bundle.mjs'), '--out', out, '--skip-build', '--models', noModels], { cwd: REPO, stdio: 'pipe' });
    for (const f of ['start.sh', 'start.cmd', 'START-HERE.txt', 'bin/synapsis.js', 'out/renderer/index.html', 'resources/sample-vault', 'resources/demo-tour.json', 'node_modules/better-sqlite3', 'node_modules/tsx']) {
      expect(fs.existsSync(path.join(out, f)), f).toBe(true);
    }
    // No tests, no devDependencies.
    expect(fs.existsSync(path.join(out, 'src/engine/engine.test.ts'))).toBe(false);
    expect(fs.existsSync(path.join(out, 'node_modules/vitest'))).toBe(false);
    expect(fs.existsSync(path.join(out, 'node_modules/@lancedb'))).toBe(false);

    const demoDir = path.join(temp.make('bundle-demo-'), 'demo');
    const server = await startServer<{ url: string; demo: boolean }>(path.join(out, 'start.sh'), ['--json', '--demo-dir', demoDir], { cwd: temp.make('elsewhere-'), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, DISPLAY: '' } });
    const { url, demo } = server.info;
    expect(demo).toBe(true);
    const page = await chromiumBrowser().newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.getByTestId('demo-banner').waitFor();
    await page.getByTestId('tour-q03').waitFor();
    await page.getByTestId('demo-progress').waitFor({ state: 'detached', timeout: 60_000 });
    await page.getByTestId('tour-q03').click();
    await page.getByTestId('answer').waitFor({ timeout: 30_000 });
    expect((await page.getByTestId('citation').allTextContents()).join(' ')).toContain('Transport protocol');
    await screenshot(page, 'demo-bundle');
    await page.close();
    expect(await server.stop()).toBe(0);
  });
});
