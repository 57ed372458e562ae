/**
 * Precision and recall of the names the graph finds in running text, on two hand-labelled vaults
 * (test/fixtures/graph-names: documentation notes full of UI words and imperatives, and meeting
 * notes with real people, projects and organisations; one English, one Russian). Run:
 *   npx vitest run test/graph-names.test.ts
 * It prints each vault's numbers and the names it got wrong. A name counts as extracted when it
 * becomes a graph node of its own (an `entity:` node); names that resolve to notes are links.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine/engine.ts';
import { loadKnowledgeGraph, normalizeName } from '../src/engine/graph/links.ts';
import { asReadConnection } from '../src/engine/store/connection.ts';
import { DB_FILE } from '../src/engine/store/database.ts';
import { TempDirs } from './helpers/tmp.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'graph-names');
const labels = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'labels.json'), 'utf8')) as Record<string, { entities: string[]; acceptable: string[] }>;
const temp = new TempDirs();
afterAll(() => temp.cleanup());

async function extractedNames(vault: string): Promise<string[]> {
  const dataDir = temp.make('syn-names-');
  const engine = createEngine({ dataDir, env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } as NodeJS.ProcessEnv, config: { graphLlm: false } });
  await engine.index([vault]);
  await engine.dispose();
  const sqlite = new BetterSqlite3(path.join(dataDir, DB_FILE), { readonly: true });
  try {
    const kg = loadKnowledgeGraph(asReadConnection(sqlite), () => true);
    return kg.graph.filterNodes((id) => id.startsWith('entity:')).map((id) => kg.graph.getNodeAttribute(id, 'label'));
  } finally {
    sqlite.close();
  }
}

describe('names found in running text', () => {
  for (const [lang, minPrecision, minRecall] of [
    ['en', 0.9, 0.9],
    ['ru', 0.9, 0.8],
  ] as const) {
    it(`keeps real names and drops UI words on the ${lang} vault`, async () => {
      const gold = labels[lang]!;
      const entities = new Set(gold.entities.map(normalizeName));
      const fine = new Set([...entities, ...gold.acceptable.map(normalizeName)]);
      const found = await extractedNames(path.join(FIXTURES, lang));
      const keys = new Set(found.map(normalizeName));
      const right = found.filter((n) => fine.has(normalizeName(n)));
      const wrong = found.filter((n) => !fine.has(normalizeName(n)));
      const missed = gold.entities.filter((n) => !keys.has(normalizeName(n)));
      const precision = found.length === 0 ? 0 : right.length / found.length;
      const recall = (entities.size - missed.length) / entities.size;
      console.log(`${lang}: ${found.length} names, precision ${precision.toFixed(2)} (${right.length}/${found.length}), recall ${recall.toFixed(2)} (${entities.size - missed.length}/${entities.size})`);
      console.log(`${lang}: not names: ${wrong.join(', ') || '—'}; missed: ${missed.join(', ') || '—'}`);
      expect(precision).toBeGreaterThanOrEqual(minPrecision);
      expect(recall).toBeGreaterThanOrEqual(minRecall);
    });
  }
});
