import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashedEmbedder } from '../../src/cli/bench/hashed-embedder.ts';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import type { HealthReport } from '../../src/shared/contract.ts';
import { cli } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/tmp.ts';

/**
 * Health counts only what the caller may see: a vault holding restricted notes (one of them with
 * front matter that does not parse) reports, without the sensitivity allowed, exactly what the same
 * vault without them reports: documents, chunks, languages, vectors and warnings. Allowed, it
 * counts them and names the broken one.
 */
const PUBLIC = {
  'a.md': '# Alpha\n\nThe relay rollout starts in May.\n',
  'b.md': '# Beta\n\nSalary reviews happen every March.\n',
  'c.md': '---\ntitle: [unclosed\n---\n# Gamma\n\nThe offsite is in Lisbon.\n',
  'd.md': '# Delta\n\nDie Besprechung findet am Montag statt und dauert zwei Stunden.\n',
};
const RESTRICTED = {
  'hr/bands.md': '---\nsensitivity: restricted\n---\n# Bands\n\nPay bands.\n\n## More\n\nThe table of bands for the whole team.\n',
  'hr/broken.md': '---\nsensitivity: restricted\ntags: [a, b\n---\n# Broken\n\nLa réunion a lieu lundi et dure deux heures.\n',
  'hr/third.md': '---\nsensitivity: restricted\n---\n# Third\n\nAnother hidden note.\n',
};

const temp = new TempDirs();
const engines: Engine[] = [];
let mixed: { vault: string; dataDir: string; engine: Engine };
let plain: { vault: string; dataDir: string; engine: Engine };
afterAll(async () => {
  for (const e of engines) await e.dispose();
  temp.cleanup();
});

async function open(files: Record<string, string>) {
  const vault = temp.make('syn-health-vault-', files);
  const dataDir = temp.make('syn-health-data-');
  const engine = createEngine({ dataDir, env: {}, embedder: new HashedEmbedder(64), config: { graphLlm: false } });
  engines.push(engine);
  await engine.index([vault]);
  return { vault, dataDir, engine };
}

beforeAll(async () => {
  mixed = await open({ ...PUBLIC, ...RESTRICTED });
  plain = await open(PUBLIC);
});

/** What health says about the vault's contents, with paths relative to it. */
function contents(h: HealthReport, vault: string) {
  return {
    documents: h.documents,
    chunks: h.chunks,
    languages: h.languages,
    vectors: h.vectors.count,
    pending: h.vectors.pending,
    embedders: h.models.embedders.map((e) => ({ vectors: e.vectors, pending: e.pending, sentences: e.sentences })),
    issues: h.issues.map((i) => ({ ...i, path: path.relative(vault, i.path) })),
    degradations: h.degradations,
  };
}

describe('health without the sensitivity allowed', () => {
  it('reads exactly as for the same vault without its restricted notes', async () => {
    const seen = contents(await mixed.engine.health(), mixed.vault);
    expect(seen).toEqual(contents(await plain.engine.health(), plain.vault));
    expect(seen.documents.indexed).toBe(4);
    expect(seen.vectors).toBeGreaterThan(0);
    expect(JSON.stringify(seen)).not.toMatch(/hr\/|broken/);
  });

  it('counts and names the restricted notes when allowed', async () => {
    const h = await mixed.engine.health({ allow_sensitivity: ['restricted'] });
    expect(h.documents.indexed).toBe(7);
    expect(h.chunks).toBeGreaterThan((await plain.engine.health()).chunks);
    expect(h.issues).toContainEqual({ path: path.join(mixed.vault, 'hr/broken.md'), status: 'warning', reason: expect.stringContaining('line 3') });
  });

  it('on the command line: "4 indexed" and no restricted path, unless --allow names the sensitivity', async () => {
    const hidden = await cli(['health', '--data-dir', mixed.dataDir]);
    expect(hidden.out).toContain('documents: 4 indexed');
    expect(hidden.out).not.toContain('broken.md');
    const allowed = await cli(['health', '--allow', 'restricted', '--data-dir', mixed.dataDir]);
    expect(allowed.out).toContain('documents: 7 indexed');
    expect(allowed.out).toContain(path.join(mixed.vault, 'hr/broken.md'));
  });
});
