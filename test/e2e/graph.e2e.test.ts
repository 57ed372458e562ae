/**
 * The graph view on the sample vault in web mode: nodes coloured by what they stand for, the centre
 * marked, labels that never overlap, a crowded neighbourhood collapsed to its most connected nodes
 * with "show more", Back to the previous centre, and dragging that pans from a node as well as from
 * the background; at 1280x800 and 800x600, light and dark (screenshots in test-results/screenshots).
 * The whole vault's graph makes one node of a name's forms (WebSocket/WebSockets, Москве/Москву).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, webSuite } from './harness.ts';

const { open, temp } = webSuite();

async function showGraph(page: Page, entity: string): Promise<void> {
  await page.getByLabel('Entity').fill(entity);
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect.poll(() => page.getByTestId('graph-center').textContent()).toBe(entity);
  await page.getByTestId('graph-node').first().waitFor();
}

/** The screen boxes of the node names drawn, and whether any two of them overlap. */
async function labelOverlaps(page: Page): Promise<{ drawn: number; overlaps: string[] }> {
  return page.evaluate(() => {
    const boxes = [...document.querySelectorAll('[data-testid=graph-node].gnode--labelled text')].map((t) => ({ text: t.textContent ?? '', r: t.getBoundingClientRect() }));
    const overlaps: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!.r, boxes[j]!.r];
        // A pixel of anti-aliasing either way is not an overlap.
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) overlaps.push(`${boxes[i]!.text} / ${boxes[j]!.text}`);
      }
    }
    return { drawn: boxes.length, overlaps };
  });
}

const fill = (page: Page, role: string) => page.locator(`[data-testid=graph-node][data-role=${role}] > circle:not(.gnode__ring)`).first().evaluate((c) => getComputedStyle(c).fill);

describe('graph view', () => {
  it('colours people, projects and organisations, marks the centre, collapses a crowded graph, goes Back, and pans by dragging a node', async () => {
    const app = await open({ indexFirst: true });
    const { page } = app;
    await page.keyboard.press('Alt+4');
    await showGraph(page, 'Project Aurora');

    // A crowded neighbourhood (72 nodes) shows its 30 most connected, the centre among them.
    const caption = page.getByTestId('graph-caption');
    expect(await caption.textContent()).toMatch(/30 of 7\d nodes/);
    expect(await page.getByTestId('graph-node').count()).toBe(30);

    // Kinds reach the drawing: the legend's person, project and organization colours appear.
    expect(await page.locator('[data-testid=graph-node][data-role=person]').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=graph-node][data-role=project]').count()).toBeGreaterThan(0);
    expect(await fill(page, 'person')).toBe('rgb(225, 29, 72)');
    expect(await fill(page, 'project')).toBe('rgb(37, 99, 235)');

    // The centre is marked: one node, ringed, named in the caption.
    const center = page.locator('[data-testid=graph-node][data-center=true]');
    expect(await center.count()).toBe(1);
    expect(await center.getAttribute('aria-label')).toMatch(/^Project Aurora \(project, the centre\)$/);
    expect(await center.locator('circle.gnode__ring').count()).toBe(1);

    const first = await labelOverlaps(page);
    expect(first.overlaps).toEqual([]);
    expect(first.drawn).toBeGreaterThanOrEqual(10);
    await screenshot(page, 'graph-1280-light');

    // Show more: the next most connected join, labels still apart; organisations among them.
    await page.getByTestId('graph-more').click();
    await expect.poll(() => page.getByTestId('graph-node').count()).toBe(60);
    expect((await labelOverlaps(page)).overlaps).toEqual([]);
    await page.getByTestId('graph-more').click();
    await expect.poll(() => page.getByTestId('graph-node').count()).toBeGreaterThan(60);
    expect(await page.getByTestId('graph-more').count()).toBe(0);
    expect(await page.locator('[data-testid=graph-node][data-role=organization]').count()).toBeGreaterThan(0);
    expect(await fill(page, 'organization')).toBe('rgb(5, 150, 105)');
    expect((await labelOverlaps(page)).overlaps).toEqual([]);

    // Dragging from a node pans the drawing and does not move to that node.
    const transform = () => page.locator('[data-testid=graph-svg] > g').getAttribute('transform');
    const before = await transform();
    const person = page.locator('[data-testid=graph-node][data-role=person]').first();
    const personName = ((await person.getAttribute('aria-label')) ?? '').replace(/ \(.*$/, '');
    const box = (await person.locator('circle').last().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 30, { steps: 6 });
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 60, { steps: 6 });
    await page.mouse.up();
    expect(await transform()).not.toBe(before);
    expect(await page.getByTestId('graph-center').textContent()).toBe('Project Aurora');

    // A click (no drag) moves there; Back returns to Project Aurora, and then there is nowhere back to.
    expect(await page.getByTestId('graph-back').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Reset the view' }).click();
    await page.locator('[data-testid=graph-node][data-role=person]').first().click();
    await expect.poll(() => page.getByTestId('graph-center').textContent()).toBe(personName);
    expect(await page.locator('[data-testid=graph-node][data-center=true]').getAttribute('aria-label')).toContain('person, the centre');
    await page.getByTestId('graph-back').click();
    await expect.poll(() => page.getByTestId('graph-center').textContent()).toBe('Project Aurora');
    expect(await page.getByTestId('graph-back').isDisabled()).toBe(true);

    // Dark theme, and a small window: still readable, labels still apart.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect((await labelOverlaps(page)).overlaps).toEqual([]);
    await screenshot(page, 'graph-1280-dark');
    await page.setViewportSize({ width: 800, height: 600 });
    await showGraph(page, 'Maya Chen');
    expect((await labelOverlaps(page)).overlaps).toEqual([]);
    const svg = (await page.getByTestId('graph-svg').boundingBox())!;
    expect(svg.width).toBeGreaterThan(500);
    expect(svg.height).toBeGreaterThan(300);
    await screenshot(page, 'graph-800-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await screenshot(page, 'graph-800-light');
  });

  it('draws one node for the forms of one name in the whole vault’s graph and centres on it by any form', async () => {
    // English plural and Russian case forms of one name, a status every note shares, two notes of one title.
    const vault = temp.make('e2e-forms-', {
      'Relay.md': '---\nstatus: accepted\n---\n# Relay\n\nThe relay speaks WebSocket to every client.\n',
      'Gateway.md': '---\nstatus: accepted\n---\n# Gateway\n\nThe gateway keeps WebSockets open for an hour.\n',
      'Clients.md': '---\nstatus: accepted\n---\n# Clients\n\nEach client opens a WebSocket to the relay.\n',
      'a/Plan.md': '# Plan\n\nПилот идёт в Москве с курьерами.\n',
      'b/Plan.md': '# Plan\n\nЗапуск в Москву назначен на май.\n',
      'Итоги.md': '# Итоги\n\nИтоги пилота в Москве подведены.\n',
    });
    const { page } = await open({ indexFirst: true, vault });
    await page.keyboard.press('Alt+4');
    const global = page.getByTestId('global-graph');
    await global.waitFor();
    // Every node is among the most central listed (fewer than 20): one per name, by its most used form.
    const central = async () => (await global.getByTestId('global-central').allTextContents()).sort();
    await expect.poll(central).toContain('WebSocket');
    const names = await central();
    expect(names.filter((n) => /websocket/i.test(n))).toEqual(['WebSocket']);
    expect(names.filter((n) => /^Моск/.test(n))).toEqual(['Москве']);
    // A status is no node; two notes of one title are told apart by their folder.
    expect(names).not.toContain('accepted');
    expect(names).toEqual(expect.arrayContaining(['Plan (a)', 'Plan (b)']));
    // So does the list of the most connected beside it.
    await page.locator('ul.central button').first().waitFor();
    const connected = await page.locator('ul.central button').allTextContents();
    expect(connected).not.toContain('accepted');
    expect(connected).toEqual(expect.arrayContaining(['WebSocket', 'Москве', 'Plan (a)', 'Plan (b)']));
    await screenshot(page, 'graph-global-name-forms');
    // The graph view finds the node by either form and shows every note that writes one.
    await page.getByLabel('Entity').fill('WebSockets');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await expect.poll(() => page.getByTestId('graph-center').textContent()).toBe('WebSocket');
    await expect.poll(async () => (await page.getByTestId('graph-node').evaluateAll((ns) => ns.map((n) => n.getAttribute('aria-label')))).sort()).toEqual([
      'Clients (note)',
      'Gateway (note)',
      'Relay (note)',
      'WebSocket (entity, the centre)',
    ]);
    await screenshot(page, 'graph-name-forms-centre');
  });
});
