/**
 * Getting models from the app, in web mode: onboarding on a fresh data dir downloads the recommended
 * models from a local server (the catalog and the mirror set by environment, as an organisation
 * would), with progress, cancel and resume, and they are registered and used without restarting the
 * app; another spec imports them from a folder; with SYNAPSIS_OFFLINE=1 there is no download.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CatalogModel } from '../../src/engine/llm/catalog.ts';
import { serveModels } from '../helpers/model-server.ts';
import { SHARED_DIR } from '../helpers/tmp.ts';
import { screenshot, webSuite } from './harness.ts';

const { temp, open, cleanup } = webSuite();

const MINILM = 'all-MiniLM-L6-v2.Q8_0.gguf';
const STORIES = 'stories260K.gguf';
const read = (file: string) => fs.readFileSync(path.join(SHARED_DIR, 'models', file));
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** A catalog of two small models (an embedder and a chat model), both recommended on any machine. */
function catalogFile(): string {
  const entry = (id: string, role: CatalogModel['role'], file: string, architecture: string, license: string): CatalogModel => {
    const data = read(file);
    return { id, role, name: id, file, languages: ['en'], size_bytes: data.length, size_exact: true, license, sha256: sha(data), architecture, uri: null, good_for: 'tests', ram_bytes: 0, recommended: true };
  };
  const file = path.join(temp.make('e2e-catalog-'), 'catalog.json');
  fs.writeFileSync(file, JSON.stringify([entry('minilm-test', 'embed', MINILM, 'bert', 'Apache-2.0'), entry('stories-test', 'chat', STORIES, 'llama', 'MIT')]));
  return file;
}

describe('getting models from the app (web mode)', () => {
  it('onboarding downloads the recommended models with progress, cancel and resume, and registers them', async () => {
    // Slow enough to see the progress and cancel in the middle of the 25 MB embedder.
    const server = await serveModels({ [MINILM]: read(MINILM), [STORIES]: read(STORIES) }, { bytesPerSecond: 1024 * 1024 });
    cleanup(() => server.close());
    const app = await open({ env: { SYNAPSIS_MODEL_CATALOG: catalogFile(), SYNAPSIS_MODEL_MIRROR: server.url } });
    const { page } = app;
    await page.getByTestId('onboarding').waitFor();
    const lines = page.getByTestId('catalog-line');
    await lines.first().waitFor();
    expect(await lines.allTextContents()).toEqual([
      expect.stringMatching(/^minilm-test meaning search 24\.1 MB · licence Apache-2\.0 · needs <1 GB memory · checked by sha256$/),
      // A chat model says how fast it would write here.
      expect.stringMatching(/^stories-test written answers 1\.1 MB · licence MIT · needs <1 GB memory · checked by sha256Estimated for this machine: about [\d.]+ tokens\/s, an answer in about \d+ s\.$/),
    ]);
    const button = page.getByTestId('download-recommended');
    expect(await button.textContent()).toBe('Download the recommended models (25.2 MB)');
    await screenshot(page, 'models-01-onboarding-offer');

    await button.click();
    const progress = page.getByTestId('download-progress');
    await progress.getByText(/^all-MiniLM-L6-v2\.Q8_0\.gguf \(1 of 2\): [\d.]+ MB of 24\.1 MB · [1-9]\d?% · [\d.]+ (MB|KB)\/s$/).waitFor({ timeout: 30_000 });
    await screenshot(page, 'models-02-progress');
    await page.getByTestId('download-cancel').click();
    await page.getByTestId('download-error').getByText(/was cancelled: what arrived is kept, and downloading again resumes it/).waitFor();
    expect(fs.existsSync(path.join(app.dataDir, 'models', MINILM))).toBe(false);
    await screenshot(page, 'models-03-cancelled');

    // How many bytes a resume saves is measured in src/engine/host/model-downloads.test.ts; here: it finishes.
    await page.getByTestId('download-resume').click();
    // The list of models present (the empty state's sentence names the same roles: wait for the items).
    const present = page.getByTestId('models-present').getByRole('listitem');
    // Each waits as long: the host restarts the engine with each model as it is registered, and on a
    // busy 2-core machine the second took over 30 s after the first (one fresh-clone run).
    await present.filter({ hasText: 'search by meaning, not only by words' }).waitFor({ timeout: 90_000 });
    await present.filter({ hasText: 'answers written in sentences, checked by the critic' }).waitFor({ timeout: 90_000 });
    await page.getByTestId('download-progress').getByText(/^stories260K\.gguf \(2 of 2\): downloaded, checked and registered$/).waitFor();
    await screenshot(page, 'models-04-registered');
    // Registered with the engine, which the host restarted with them: no restart is asked of the user.
    const models = await (await app.host.engine()).call('models/list', {});
    expect(models.map((m) => [m.file, m.role]).sort()).toEqual([[MINILM, 'embed'], [STORIES, 'chat']]);
    expect((await (await app.host.engine()).call('health/get', {})).degradations.join(' ')).not.toMatch(/no embedding model/);
    expect(await page.getByTestId('download-recommended').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Start', exact: true }).count()).toBe(1);
  });

  it('onboarding imports the models of a folder, and names a folder without any', async () => {
    const app = await open({ env: { SYNAPSIS_MODEL_CATALOG: catalogFile(), SYNAPSIS_OFFLINE: '1' } });
    const { page } = app;
    await page.getByTestId('onboarding').waitFor();
    // Offline installation: the catalog lines stay, the download does not.
    await page.getByTestId('downloads-off').waitFor();
    expect(await page.getByTestId('download-recommended').count()).toBe(0);
    const empty = temp.make('e2e-empty-stick-');
    await page.getByLabel('Models folder').fill(empty);
    await page.getByTestId('import-folder').click();
    await page.getByRole('alert').getByText(`No .gguf model files in ${empty} (or the folders inside it)`).waitFor();
    await screenshot(page, 'models-05-import-error');

    const stick = temp.make('e2e-stick-');
    fs.mkdirSync(path.join(stick, 'models'));
    fs.copyFileSync(path.join(SHARED_DIR, 'models', STORIES), path.join(stick, 'models', STORIES));
    await page.getByLabel('Models folder').fill(stick);
    await page.getByTestId('import-folder').click();
    await page.getByTestId('models-present').getByRole('listitem').filter({ hasText: 'answers written in sentences, checked by the critic' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'models-06-imported');
    const models = await (await app.host.engine()).call('models/list', {});
    expect(models.map((m) => [m.file, m.role])).toEqual([[STORIES, 'chat']]);

    // Settings → Models offers the same: the catalog (the imported one marked installed) and the folder import.
    await page.getByLabel('Folder path').fill(app.vault);
    await page.getByRole('button', { name: 'Add folder' }).click();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.keyboard.press('Alt+5');
    const settings = page.getByRole('region', { name: 'Settings' }).getByTestId('get-models');
    await settings.getByTestId('downloads-off').waitFor();
    expect(await settings.getByTestId('catalog-line').allTextContents()).toEqual([expect.stringMatching(/^minilm-test .* import it from a folder$/), expect.stringMatching(/^stories-test .* installed(On this machine|Estimated for this machine): about /)]);
    expect(await settings.getByTestId('import-folder').count()).toBe(1);
    await settings.scrollIntoViewIfNeeded();
    await screenshot(page, 'models-07-settings');
  });
});
