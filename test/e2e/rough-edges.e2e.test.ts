/**
 * The rough edges a review of the app in Chromium found (issue: "The app people keep open"): each
 * spec drives the built renderer over web mode and asserts what a person sees, with a screenshot of
 * each state in test-results/screenshots/edges-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startWebServer } from '../../src/cli/web.ts';
import { createEngine } from '../../src/engine/engine.ts';
import { EngineHost } from '../../src/engine/host/engine-host.ts';
import { SAMPLE_QUESTIONS, SAMPLE_VAULT, SHARED_DIR } from '../helpers/tmp.ts';
import { REPO, screenshot, UI_DIR, webSuite } from './harness.ts';

const { temp, browser: chromiumBrowser, open, cleanup } = webSuite();

/** The demo workspace (started in it, as `synapsis web --demo`), over an empty user workspace. */
async function openDemo(options: { modelsDir?: string; waitReady?: boolean } = {}): Promise<{ page: Page; host: EngineHost; userDir: string; ready: () => Promise<void> }> {
  const userDir = temp.make('edges-user-');
  const demoDir = path.join(temp.make('edges-demo-'), 'synapsis-demo');
  const host = new EngineHost({
    create: () => createEngine({ dataDir: userDir, env: {} }),
    demo: { vault: SAMPLE_VAULT, questionsFile: SAMPLE_QUESTIONS, tourFile: path.join(REPO, 'resources', 'demo-tour.json'), dataDir: demoDir, modelsDir: options.modelsDir },
    startInDemo: true,
  });
  const server = await startWebServer({ host, staticDir: UI_DIR, port: 0, version: 'e2e' });
  const context = await chromiumBrowser().newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(server.openUrl);
  cleanup(async () => {
    await context.close();
    await server.close();
    await host.dispose();
  });
  await page.getByTestId('demo-banner').waitFor({ timeout: 30_000 });
  // Prepared: the sample vault indexed (and embedded) in the demo workspace.
  const ready = () =>
    expect
      .poll(
        async () => {
          const engine = await host.engine();
          const [health, status] = await Promise.all([engine.call('health/get', {}), engine.call('index/status', {})]);
          return health.documents.indexed > 40 && !status.running;
        },
        { timeout: 240_000, interval: 500 },
      )
      .toBe(true);
  if (options.waitReady !== false) await ready();
  return { page, host, userDir, ready };
}
describe('rough edges in web mode', () => {
  it('Esc closes a search result preview and keeps the query and its results', async () => {
    const { page } = await open({ indexFirst: true });
    await page.keyboard.press('Control+/');
    await page.locator('#search-input').fill('relay port');
    await page.getByTestId('result').first().waitFor();
    const before = await page.locator('.result__loc').allTextContents();
    await page.locator('#search-input').press('Enter');
    await page.getByTestId('source-preview').locator('[data-cited]').first().waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('source-preview').count()).toBe(0);
    expect(await page.locator('#search-input').inputValue()).toBe('relay port');
    expect(await page.locator('.result__loc').allTextContents()).toEqual(before);
    await screenshot(page, 'edges-01-esc-keeps-search');
    // With no preview open, Esc in the field still clears it, as a search field does.
    await page.locator('#search-input').press('Escape');
    expect(await page.locator('#search-input').inputValue()).toBe('');
  });

  it('the answer card shows its question; a tour step fills the ask box; a typed question survives switching views', async () => {
    const { page } = await open({ indexFirst: true });
    const question = 'Why did we postpone QUIC?';
    await page.locator('#ask-input').fill(question);
    await page.keyboard.press('Control+/');
    await page.locator('#search-input').waitFor();
    await page.keyboard.press('Control+k');
    await expect.poll(() => page.locator('#ask-input').inputValue()).toBe(question);
    await page.locator('#ask-input').press('Enter');
    await page.getByTestId('answer').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('answer').getByTestId('answer-question').textContent()).toBe(question);
    expect(await page.locator('#ask-input').inputValue()).toBe(question);
    await screenshot(page, 'edges-02-answer-question');
    const direction = (selector: string) => page.locator(selector).first().evaluate((el) => getComputedStyle(el).direction);
    expect(await direction('[data-testid="answer-question"]')).toBe('ltr');
    // A question in a script written right to left reads right to left, in the ask box and on its card.
    await page.locator('#ask-input').fill('كم يوما لدي لاسترداد المال؟');
    expect(await direction('#ask-input')).toBe('rtl');
    await page.locator('#ask-input').press('Enter');
    // The finished card (not the one streaming before it) holds the question.
    await expect.poll(() => page.getByTestId('answer').getByTestId('answer-question').textContent(), { timeout: 30_000 }).toBe('كم يوما لدي لاسترداد المال؟');
    expect(await direction('[data-testid="answer"] [data-testid="answer-question"]')).toBe('rtl');
    await screenshot(page, 'edges-02-answer-question-rtl');

    const demo = await openDemo();
    const tour = demo.page.getByRole('region', { name: 'Guided tour' });
    const first = tour.locator('.tour__ask').first();
    const tourQuestion = (await first.locator('.tour__question').textContent()) ?? 'missing';
    // The tour's buttons wait while the demo is being prepared.
    await expect.poll(() => first.isEnabled(), { timeout: 60_000 }).toBe(true);
    await first.click();
    await expect.poll(() => demo.page.locator('#ask-input').inputValue()).toBe(tourQuestion);
    await demo.page.getByTestId('answer').waitFor({ timeout: 60_000 });
    expect(await demo.page.getByTestId('answer-question').textContent()).toBe(tourQuestion);
    await screenshot(demo.page, 'edges-02-tour-question');
  });

  it('after the server restarts, an open tab says to open the new address and reloads with it', async () => {
    const app = await open({ indexFirst: true });
    const { page } = app;
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const port = app.server.port;
    await app.server.close();
    // The same port, a new run: a new token, as `synapsis web` prints after a restart.
    const next = await startWebServer({ host: app.host, staticDir: UI_DIR, port, version: 'e2e' });
    cleanup(() => next.close());
    const card = page.getByTestId('restarted');
    await card.waitFor({ timeout: 60_000 });
    expect(await card.getByRole('heading').textContent()).toBe('Synapsis restarted — open the new address');
    expect(await page.getByTestId('index-badge').count()).toBe(0);
    expect(await page.getByRole('alert').filter({ hasText: /connection/i }).count()).toBe(0);
    await screenshot(page, 'edges-03-restarted');
    await card.getByLabel('New address').fill(next.openUrl);
    await card.getByRole('button', { name: 'Reload with it' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('index-badge').textContent(), { timeout: 30_000 }).toMatch(/Up to date|Watching/);
    expect(page.url()).not.toContain('token=');
    // Pasting the address into the address bar (only the fragment changes) reloads too.
    await next.close();
    const third = await startWebServer({ host: app.host, staticDir: UI_DIR, port, version: 'e2e' });
    cleanup(() => third.close());
    await card.waitFor({ timeout: 60_000 });
    await page.evaluate((url) => (window.location.href = url), third.openUrl);
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('index-badge').textContent(), { timeout: 30_000 }).toMatch(/Up to date|Watching/);
    await screenshot(page, 'edges-03-reconnected');
  });

  it('search cards show the note tags; the tag filter applies as you type with suggestions; results stop at a score gap', async () => {
    const { page } = await open({ indexFirst: true });
    await page.keyboard.press('Control+/');
    await page.locator('#search-input').fill('relay port');
    const first = page.getByTestId('result').first().locator('..');
    await first.waitFor();
    // The sample vault's "Relay server" note is tagged aurora, backend, go, project, relay.
    expect(await first.getByTestId('result-tag').allTextContents()).toEqual(expect.arrayContaining(['#aurora', '#project']));
    expect(await first.locator('.result__side').textContent()).not.toMatch(/markdown\s*markdown/);
    // Typing a tag filters without Enter or leaving the field, and suggests the vault's tags.
    await page.locator('#tag-filter').pressSequentially('how', { delay: 40 });
    await page.getByRole('list', { name: 'Tag suggestions' }).getByRole('button', { name: '#howto' }).waitFor();
    await screenshot(page, 'edges-04-tag-suggestions');
    await page.getByRole('list', { name: 'Tag suggestions' }).getByRole('button', { name: '#howto' }).click();
    await expect.poll(async () => (await page.locator('.result__loc').allTextContents()).every((p) => p.startsWith('howto/')), { timeout: 10_000 }).toBe(true);
    expect(await page.locator('#tag-filter').inputValue()).toBe('howto, ');
    expect(await page.locator('#tag-filter').evaluate((el) => el === document.activeElement)).toBe(true);
    // An exact identifier: the four passages that name it, the rest behind "more".
    await page.locator('#tag-filter').fill('');
    await page.locator('#search-input').fill('AURORA_RELAY_PORT');
    await expect.poll(() => page.getByTestId('search-meta').textContent(), { timeout: 10_000 }).toMatch(/^4 passages stand out of 20/);
    expect(await page.getByTestId('result').count()).toBe(4);
    await screenshot(page, 'edges-04-score-gap');
    await page.getByRole('button', { name: 'Show 16 more' }).click();
    expect(await page.getByTestId('result').count()).toBe(20);
  });

  it('citations read 1, 2, 3 in answer order; times and counts read as words; a repeated toast shows once', async () => {
    const demo = await openDemo();
    // The graph-hop step's answer cites its sources as ranked 2, 4, 1.
    await demo.page.getByTestId('tour-q08').click();
    const answer = demo.page.getByTestId('answer');
    await answer.waitFor({ timeout: 60_000 });
    // The quote's chips, then those of the closest sentences listed under an unsure quote, in reading order.
    const chips = (await answer.locator('.answer__text button.cite-chip, .answer__closest button.cite-chip').allTextContents()).map(Number);
    expect(chips.length).toBeGreaterThan(1);
    // Each new source is the next number: 1, 2, … (a repeat may come back to an earlier one).
    const firstSeen = chips.filter((n, i) => chips.indexOf(n) === i);
    expect(firstSeen).toEqual(firstSeen.map((_, i) => i + 1));
    expect((await answer.getByTestId('citation').locator('.cite-chip').allTextContents()).map(Number)).toEqual(firstSeen);
    expect(await answer.locator('.answer__actions .muted').textContent()).toMatch(/^(\d+ tokens · )?(\d+ ms|\d+\.\d s|\d+ min \d+ s)$/);
    // Its passages: a partly answered question shows the closest open (the rest folded), an answered one folds them all.
    const closest = demo.page.getByTestId('closest-passages');
    if ((await closest.count()) > 0) expect(await closest.locator('h3').textContent()).toMatch(/^The (\d+ closest passages|closest passage): the notes may say it here$/);
    else expect(await demo.page.locator('details.passages > summary').textContent()).toMatch(/^(The passage|All \d+ passages) the answer was written from$/);
    await screenshot(demo.page, 'edges-05-citation-order');

    const { page } = await open({ indexFirst: true });
    await page.keyboard.press('Control+/');
    await page.locator('#search-input').fill('relay port');
    await page.getByTestId('result').first().click();
    const preview = page.getByTestId('source-preview');
    await preview.locator('[data-cited]').first().waitFor();
    await preview.getByRole('button', { name: 'Open in editor' }).click();
    await page.locator('.toast').first().waitFor();
    await preview.getByRole('button', { name: 'Open in editor' }).click();
    await page.waitForTimeout(500);
    expect(await page.locator('.toast').count()).toBe(1);
    await screenshot(page, 'edges-05-one-toast');
  });

  it('restricted notes, once allowed, are marked in search, answers and sources, and the window says restricted notes are shown', async () => {
    const { page } = await open({ indexFirst: true });
    expect(await page.getByTestId('restricted-mode').count()).toBe(0);
    await page.keyboard.press('Alt+5');
    await page.getByLabel('Show them until the window closes').check();
    await page.getByTestId('restricted-mode').getByText('Restricted notes shown').waitFor();
    await page.keyboard.press('Control+/');
    await page.locator('#search-input').fill('Bluefin retention');
    const card = page.getByTestId('result').filter({ hasText: 'Compensation review' }).first().locator('..');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('result-restricted').textContent()).toBe('restricted');
    await screenshot(page, 'edges-06-restricted-search');
    await page.keyboard.press('Control+k');
    await page.locator('#ask-input').fill('What is the code word for the retention plan?');
    await page.keyboard.press('Enter');
    const answer = page.getByTestId('answer');
    await answer.waitFor({ timeout: 30_000 });
    await answer.getByTestId('answer-restricted').waitFor();
    const restrictedSource = answer.getByTestId('citation').filter({ hasText: 'Compensation review' }).first();
    expect(await restrictedSource.locator('.badge--restricted').textContent()).toBe('restricted');
    await restrictedSource.click();
    await page.getByTestId('source-preview').getByText('restricted note').waitFor();
    await screenshot(page, 'edges-06-restricted-answer');
    await page.keyboard.press('Escape');
    // Hiding them again from the marker ends the mode.
    await page.getByTestId('restricted-mode').getByRole('button', { name: 'Hide' }).click();
    await expect.poll(() => page.getByTestId('restricted-mode').count()).toBe(0);
    expect(await page.locator('main').textContent()).not.toContain('Bluefin');
  });

  it('"Open in editor" that fails says why in the preview and offers to read the whole file there', async () => {
    // An opener that fails the way xdg-open does on a desktop with no application for the file.
    const bin = temp.make('edges-opener-');
    fs.writeFileSync(path.join(bin, 'xdg-open'), '#!/bin/sh\necho "xdg-open: no method available for opening \'$1\'" >&2\nexit 3\n', { mode: 0o755 });
    const { page } = await open({ indexFirst: true, env: { SYNAPSIS_EDITOR: `${path.join(bin, 'xdg-open')} {file}` } });
    await page.keyboard.press('Control+/');
    await page.locator('#search-input').fill('relay port');
    await page.getByTestId('result').first().click();
    const preview = page.getByTestId('source-preview');
    await preview.locator('[data-cited]').first().waitFor();
    await preview.getByRole('button', { name: 'Open in editor' }).click();
    const failure = preview.getByTestId('open-error');
    await failure.waitFor({ timeout: 15_000 });
    expect(await failure.textContent()).toMatch(/Could not open it in an editor\..*exited with code 3 \(no application is set to open this kind of file\)/);
    expect(await page.locator('.toast').filter({ hasText: /^Opened/ }).count()).toBe(0);
    await screenshot(page, 'edges-08-open-failed');
    const before = await preview.locator('.code__line').count();
    await failure.getByRole('button', { name: 'Read the whole file here' }).click();
    await expect.poll(() => preview.locator('.code__line').first().getAttribute('data-line')).toBe('1');
    expect(await preview.locator('.code__line').count()).toBeGreaterThan(before);
    // The cited lines stay highlighted in the whole file.
    expect(await preview.locator('.code__line--cited').count()).toBeGreaterThan(0);
  });

  it('settings speak plain words first, with the technical names behind Details', async () => {
    const { page } = await open({ indexFirst: true });
    await page.keyboard.press('Alt+5');
    const health = page.getByTestId('health');
    await health.getByText(/no embedding model is installed/).waitFor();
    await page.getByTestId('system').getByText(/threads/).waitFor({ timeout: 30_000 });
    // What a person reads without opening anything: no setting names, commands or file paths.
    const visible = await page.locator('main').innerText();
    for (const jargon of [/SYN_[A-Z_]+/, /chunk_share/, /docs\/[\w-]+\.md/, /synapsis models add/, /<file\.gguf>/]) expect(visible).not.toMatch(jargon);
    await screenshot(page, 'edges-09-settings-plain');
    // The detail is one click away.
    await page.getByTestId('health-details').locator('summary').click();
    expect(await page.getByTestId('health-details').innerText()).toMatch(/synapsis models add/);
    await page.locator('.setting').filter({ hasText: 'Passage size' }).locator('summary').click();
    expect(await page.locator('.setting').filter({ hasText: 'Passage size' }).innerText()).toMatch(/SYN_CHUNK_SIZE/);
  });

  it('at 800x600 the sidebar collapses, the graph keeps its width and badges stay on one line', async () => {
    const { page } = await open({ indexFirst: true });
    await page.setViewportSize({ width: 800, height: 600 });
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    await sidebar.getByRole('button', { name: 'Collapse the sidebar' }).click();
    await expect.poll(async () => (await sidebar.boundingBox())?.width ?? 999).toBeLessThan(80);
    // Icons still name their view.
    await sidebar.getByRole('button', { name: 'Graph' }).click();
    await page.getByLabel('Entity').fill('Maya Chen');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByTestId('graph-node').first().waitFor();
    const canvas = (await page.getByTestId('graph-svg').boundingBox())!;
    expect(canvas.width).toBeGreaterThan(600);
    expect(canvas.height).toBeGreaterThan(300);
    await screenshot(page, 'edges-09-graph-800x600');
    await page.keyboard.press('Control+k');
    await page.locator('#ask-input').fill('Why did we postpone QUIC?');
    await page.keyboard.press('Enter');
    await page.getByTestId('answer').waitFor({ timeout: 30_000 });
    const heights = await page.locator('.badge, .tag').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
    expect(heights.length).toBeGreaterThan(0);
    expect(Math.max(...heights)).toBeLessThan(26);
    await screenshot(page, 'edges-09-answer-800x600');
    // Remembered: a reload keeps it collapsed; expanding brings the labels back.
    await page.reload();
    await sidebar.getByRole('button', { name: 'Expand the sidebar' }).click();
    await expect.poll(async () => (await sidebar.boundingBox())?.width ?? 0).toBeGreaterThan(150);
  });

  it.skipIf(!fs.existsSync(path.join(SHARED_DIR, 'models', 'multilingual-e5-small.Q4_0.gguf')))(
    'the demo: the ask box says it is preparing, Settings name the model in use, and its questions stay in the demo',
    async () => {
      const { page, ready, host } = await openDemo({ modelsDir: path.join(SHARED_DIR, 'models'), waitReady: false });
      // First start: while no note of the demo is indexed, the ask box says why it cannot answer yet
      // (the counts follow the index within a second, so once notes are in it asks; the page never
      // shows notes before the engine has them, so a placeholder read before 0 documents must say so).
      const preparing = async () => {
        const placeholder = (await page.locator('#ask-input').getAttribute('placeholder')) ?? '';
        const documents = (await (await host.engine()).call('health/get', {})).documents.indexed;
        return documents > 0 || /^Preparing the demo/.test(placeholder);
      };
      for (let i = 0; i < 5; i++) expect(await preparing()).toBe(true);
      await screenshot(page, 'edges-10-demo-preparing');
      await ready();
      await page.keyboard.press('Alt+5');
      const inUse = page.getByTestId('models-in-use');
      await inUse.waitFor({ timeout: 30_000 });
      await page.getByTestId('health').getByText(/^5\d documents/).waitFor({ timeout: 30_000 });
      expect(await inUse.textContent()).toMatch(/multilingual-e5-small.*embedding.*in use.*brought by the demo/);
      expect(await page.locator('main').innerText()).not.toMatch(/No models/);
      await screenshot(page, 'edges-10-demo-settings');
      await page.keyboard.press('Control+k');
      const tourQuestion = (await page.getByTestId('tour-q03').locator('.tour__question').textContent()) ?? 'missing';
      await page.getByTestId('tour-q03').click();
      await page.getByTestId('answer').waitFor({ timeout: 60_000 });
      await page.getByRole('button', { name: 'Leave the demo' }).click();
      // The user's own, empty workspace: onboarding, with a folder of their own.
      const notes = temp.make('edges-own-notes-');
      fs.writeFileSync(path.join(notes, 'groceries.md'), '# Groceries\n\nOat milk and coffee.\n');
      await page.getByLabel('Folder path').fill(notes);
      await page.getByRole('button', { name: 'Add folder' }).click();
      await page.getByText(`✓ ${fs.realpathSync(notes)}`).waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Start with search by words' }).click();
      await page.locator('#ask-input').waitFor();
      await page.getByRole('heading', { name: 'Ask your notes' }).waitFor();
      expect(await page.getByRole('region', { name: 'Recent questions' }).count()).toBe(0);
      expect(await page.locator('main').textContent()).not.toContain(tourQuestion);
      await screenshot(page, 'edges-10-user-after-demo');
    },
    // e5 embeds the 53 notes first: minutes on a loaded 2-core machine.
    300_000,
  );

  it('web mode browses folders in the page, and a refused path is explained under its field', async () => {
    const app = await open();
    const { page } = app;
    await page.getByTestId('onboarding').waitFor();
    // A typed path that is no folder: the reason sits under the field, and no toast repeats it.
    await page.getByLabel('Folder path').fill('/no/such/folder');
    await page.getByRole('button', { name: 'Add folder' }).click();
    const reason = page.locator('.field-error');
    await reason.getByText('No such folder: /no/such/folder').waitFor();
    expect(await page.getByLabel('Folder path').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.toast').count()).toBe(0);
    await screenshot(page, 'edges-11-path-error');
    // Browse…: from the typed path's nearest real folder down to the vault, by clicks.
    const vault = fs.realpathSync(app.vault);
    await page.getByLabel('Folder path').fill(path.dirname(vault));
    await page.getByRole('button', { name: 'Browse…' }).click();
    const browser = page.getByTestId('folder-browser');
    await browser.locator('.folder-browser__path').getByText(path.dirname(vault), { exact: true }).waitFor();
    await browser.getByRole('button', { name: `▸ ${path.basename(vault)}` }).click();
    await browser.locator('.folder-browser__path').getByText(vault, { exact: true }).waitFor();
    // The vault's own folders are listed; Up goes back.
    await browser.getByRole('button', { name: '▸ decisions' }).waitFor();
    await screenshot(page, 'edges-11-folder-browser');
    // Choosing the folder adds it: no second step.
    await browser.getByRole('button', { name: 'Choose this folder' }).click();
    await page.getByText(`✓ ${vault}`).waitFor({ timeout: 30_000 });
    expect(await page.getByLabel('Folder path').inputValue()).toBe('');
    expect(await page.locator('.field-error').count()).toBe(0);
  });
});
