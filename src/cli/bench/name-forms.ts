/**
 * How the forms of one name merge on an existing index (graph/name-forms.ts): the entity keys of
 * names, links, people and the like, how many of them share a node key with another (and in how
 * many groups), and a seeded sample of the groups, each with the forms it joins, to read for words
 * merged that are not one word's forms.
 *
 *   node --import tsx src/cli/bench/name-forms.ts <synapsis.db> [path prefix] [sample size] [--all]
 *
 * A path prefix ("en/") counts only the entities the documents under it state relations to. The
 * node keys are computed from the stored names, as migration 017 does, so an index of an older
 * version reads the same; the database is opened read-only.
 */
import Database from 'better-sqlite3';
import { mergeKey } from '../../engine/graph/name-forms.ts';

const args = process.argv.slice(2);
const all = args.includes('--all');
const [dbPath, prefix = '', sample = '30'] = args.filter((a) => a !== '--all');
if (!dbPath) {
  console.error('usage: name-forms.ts <synapsis.db> [path prefix] [sample size] [--all]');
  process.exit(2);
}
const db = new Database(dbPath, { readonly: true, fileMustExist: true });
// Values (statuses, dates) and code (modules, symbols) keep their key; tags are shown with '#'.
const rows = db
  .prepare(
    `SELECT e.key, e.type, e.name FROM entities e WHERE e.type NOT IN ('status', 'date', 'module', 'symbol')
       AND (@prefix = '' OR EXISTS (SELECT 1 FROM relations r JOIN documents d ON d.id = r.document_id WHERE r.dst_id = e.id AND d.path LIKE @prefix || '%'))`,
  )
  .all({ prefix }) as { key: string; type: string; name: string }[];
db.close();

const groups = new Map<string, Map<string, string>>();
for (const r of rows) {
  const node = `${r.type === 'tag' ? '#' : ''}${mergeKey(r.type, r.name)}`;
  let forms = groups.get(node);
  if (!forms) groups.set(node, (forms = new Map()));
  if (!forms.has(r.key)) forms.set(r.key, r.name);
}
const merged = [...groups.entries()].filter(([, forms]) => forms.size > 1);
const keys = new Set(rows.map((r) => `${r.type === 'tag' ? '#' : ''}${r.key}`)).size;
console.log(`${prefix || 'all documents'}: ${keys} entity keys; ${merged.reduce((n, [, f]) => n + f.size, 0)} of them in ${merged.length} groups of one name's forms`);

// A seeded sample (the same on every run).
let seed = 7;
const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
const pool = [...merged];
const picked = all ? pool : Array.from({ length: Math.min(Number(sample), pool.length) }, () => pool.splice(Math.floor(random() * pool.length), 1)[0]!);
for (const [node, forms] of picked) console.log(`  ${node}: ${[...forms.values()].join(' | ')}`);
