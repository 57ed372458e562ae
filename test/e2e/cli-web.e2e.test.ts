import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_VAULT } from '../helpers/tmp.ts';
import { commandSuite, REPO, startServer } from './harness.ts';

const { temp, browser: chromiumBrowser } = commandSuite();

describe('synapsis web (the command)', () => {
  it('prints a tokened loopback address whose page searches the workspace, and stops on SIGTERM', async () => {
    const dataDir = temp.make('cli-web-data-');
    const bin = path.join(REPO, 'bin', 'synapsis.js');
    const index = spawn(process.execPath, [bin, 'index', SAMPLE_VAULT, '--data-dir', dataDir], { stdio: 'ignore' });
    expect(await new Promise((resolve) => index.on('exit', resolve))).toBe(0);
    const server = await startServer<{ url: string }>(process.execPath, [bin, 'web', '--port', '0', '--json', '--data-dir', dataDir]);
    const { url } = server.info;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]{64}$/);
    const page = await chromiumBrowser().newPage();
    await page.goto(url);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.keyboard.press('Control+/');
    await page.locator('#search-input').fill('error code E_SYNC');
    await page.getByTestId('result').first().waitFor({ timeout: 30_000 });
    // The token left the address bar (it stays in this tab's session storage only).
    expect(page.url()).not.toContain('token=');
    await page.close();
    expect(await server.stop()).toBe(0);
  });
});
