import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_VAULT, TempDirs } from '../../../test/helpers/tmp.ts';
import { chunkingParams, loadConfig } from '../core/config.ts';
import { EventBus } from '../core/events.ts';
import { sqliteOf } from '../store/connection.ts';
import { Store } from '../store/store.ts';
import { detectFileKind } from './file-types.ts';
import { indexRoots, paramsHashOf } from './indexer.ts';
import { PreparePool } from './prepare-pool.ts';
import { prepareFile, type PrepareRequest } from './prepare.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

/** Notes in several languages and shapes: a Russian attribute table whose language only tinyld's own tables tell, a cut file, bad bytes, binary. */
const MIXED: Record<string, string | Buffer> = {
  'en.md': '# Relay outage\n\nThe relay was down for 47 minutes because the TLS certificate had expired. Maya Chen fixed it.\n',
  'ru.md': '# Встреча с партнёрами\n\nПартнёр готов запустить пилот на 1200 полевых планшетах в трёх регионах. Решение принял Тимур.\n',
  'de.md': '# Besprechung\n\nDer Bildungsrabatt gilt ab Montag für alle Schulen in Berlin.\n',
  'attr.md':
    '# <a name="dhcp-mask-attribute"></a>атрибут маски DHCP\n\nАтрибут **маски DHCP** в настоящее время не используется.\n\n\n\n| Ввод | Значение |\n|-------------------|--------------------------------------|\n| CN                | DHCP-маска                            |\n| LDAP-отображаемое имя | дхкпмаск                             |\n| Размер              | \\-                                   |\n| Привилегия обновления | Это значение задается системой. |\n',
  'list.md': `# Список\n\n${Array.from({ length: 400 }, (_, i) => `- пункт ${i} про [[ru]] и Kestrel ${i % 9}`).join('\n')}\n`,
  'bad.txt': Buffer.from([0x66, 0x6f, 0xff, 0xfe, 0x6f, 0x0a]),
  'blob.md': Buffer.from([0, 1, 2, 3, 0, 0, 7, 8]),
  'code.ts': 'export const relay = (minutes: number) => `down for ${minutes} minutes`;\n',
};

function requestsFor(root: string): PrepareRequest[] {
  const config = loadConfig({}, {});
  return fs.readdirSync(root).sort().map((relPath) => ({
    absPath: path.join(root, relPath),
    relPath,
    kind: detectFileKind(relPath) ?? { type: 'text', language: null },
    unchangedHash: null,
    chunk: { size: config.chunkSize, overlap: config.chunkOverlap, maxChunks: 3 },
    graphExtract: true,
    paramsHash: 'p',
  }));
}

describe('prepare pool', () => {
  it('prepares each file on a thread of its own exactly as this thread does', async () => {
    const root = temp.make('syn-prep-', MIXED);
    for (const dir of ['docs']) fs.cpSync(path.join(SAMPLE_VAULT, dir), path.join(root, dir), { recursive: true });
    const top = requestsFor(root);
    const requests = [...top, ...fs.readdirSync(path.join(root, 'docs')).map((f) => ({ ...top[0]!, absPath: path.join(root, 'docs', f), relPath: `docs/${f}`, kind: detectFileKind(f)! }))];
    const here = await Promise.all(requests.map((r) => prepareFile(r)));
    const pool = new PreparePool(2);
    try {
      const there = await Promise.all(requests.map((r) => pool.submit(r)));
      expect(pool.failure).toBeNull();
      expect(pool.counts).toEqual({ threads: requests.length, here: 0 });
      expect(there).toEqual(here);
    } finally {
      await pool.dispose();
    }
    expect(here.map((p) => p.status)).toContain('binary');
    expect(here.filter((p) => p.status === 'parsed').length).toBeGreaterThanOrEqual(8);
    const languages = here.flatMap((p) => (p.status === 'parsed' ? p.doc.rows.map((r) => r.lang) : []));
    expect(new Set(languages)).toEqual(expect.objectContaining(new Set(['en', 'ru', 'de'])));
  }, 60_000);

  it('prepares files on this thread when its threads cannot start, or stop', async () => {
    const root = temp.make('syn-prep-', MIXED);
    const requests = requestsFor(root);
    const here = await Promise.all(requests.map((r) => prepareFile(r)));
    const missing = new PreparePool(1, async () => null);
    expect(await Promise.all(requests.map((r) => missing.submit(r)))).toEqual(here);
    expect(missing.counts).toEqual({ threads: 0, here: requests.length });
    expect(missing.failure).toMatch(/not found/);
    await missing.dispose();
    // A thread that exits as soon as it is sent a file: what it was sent is prepared here.
    const dying = new PreparePool(1, async () => ({ code: "require('node:worker_threads').parentPort.on('message', () => process.exit(3)); require('node:worker_threads').parentPort.postMessage({ ready: true });", eval: true }));
    expect(await Promise.all(requests.map((r) => dying.submit(r)))).toEqual(here);
    expect(dying.counts.here).toBe(requests.length);
    expect(dying.failure).toMatch(/exited \(code 3\)/);
    await dying.dispose();
  }, 60_000);
});

describe('an index run on threads', () => {
  it('writes the same store as one on this thread', async () => {
    const root = temp.make('syn-prep-run-', MIXED);
    fs.cpSync(SAMPLE_VAULT, path.join(root, 'sample'), { recursive: true });
    const dump = async (threads: boolean) => {
      const store = new Store(temp.make('syn-prep-data-'));
      try {
        const config = loadConfig({}, {});
        const r = store.addRoot(fs.realpathSync(root), [], []);
        const report = await indexRoots({ store, config, events: new EventBus(), paramsHash: paramsHashOf(chunkingParams(config)), prepareThreads: threads }, [r]);
        const db = sqliteOf(store.db);
        const rows = (sql: string) => db.prepare(sql).all();
        return {
          report: { ...report, duration_ms: 0 },
          documents: rows('SELECT path, title, content_hash, status, error, meta_json, sensitivity FROM documents ORDER BY path'),
          chunks: rows('SELECT d.path, c.ordinal, c.locator, c.text, c.lang, c.chunk_hash, c.embed_hash, c.start_line, c.end_line FROM chunks c JOIN documents d ON d.id = c.document_id ORDER BY d.path, c.ordinal'),
          terms: (db.exec("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, chunks_fts, 'instance')"), rows('SELECT term, doc, col, offset FROM temp.v ORDER BY term, doc, col, offset')),
          relations: rows('SELECT d.path, r.seq, r.type, r.start_line, r.end_line, r.fragment, r.ordinal, e.name, e.type AS entity FROM relations r JOIN documents d ON d.id = r.document_id JOIN entities e ON e.id = r.dst_id ORDER BY d.path, r.seq'),
          degrees: rows('SELECT d.path, n.degree, n.public_degree FROM note_degrees n JOIN documents d ON d.id = n.document_id ORDER BY d.path'),
        };
      } finally {
        store.dispose();
      }
    };
    const here = await dump(false);
    const threads = await dump(true);
    expect(here.documents.length).toBeGreaterThan(15);
    expect(threads).toEqual(here);
  }, 120_000);
});
