import { describe, expect, it } from 'vitest';
import { prng } from '../../shared/prng.ts';
import { extractGraphFacts, lowerCaseUses, proseWordCounts, type ExtractInput } from './extract.ts';

const md = (text: string, frontmatter: Record<string, unknown> = {}, from = 0): ExtractInput => ({ relPath: 'n.md', type: 'markdown', lines: text.split('\n'), from, frontmatter });
const rel = (facts: ReturnType<typeof extractGraphFacts>, type: string) => facts.relations.filter((r) => r.type === type).map((r) => `${r.dst.type}:${r.dst.name}@${r.line}${r.endLine !== r.line ? `-${r.endLine}` : ''}`);

describe('graph extraction rules', () => {
  it('front-matter fields become typed relations cited at the field’s own lines', () => {
    const lines = ['---', 'title: Storage', 'decided_by: "[[Maya Chen]]"', 'people:', '  - Priya Raman', '  - José Núñez', 'project: Project Aurora', 'status: accepted', 'date: 2026-03-14', 'tags: [adr, storage]', '---', '# Storage', ''];
    const facts = extractGraphFacts({
      relPath: 'd.md',
      type: 'markdown',
      lines,
      from: 11,
      frontmatter: { title: 'Storage', decided_by: '[[Maya Chen]]', people: ['Priya Raman', 'José Núñez'], project: 'Project Aurora', status: 'accepted', date: new Date('2026-03-14'), tags: ['adr', 'storage'] },
    });
    expect(rel(facts, 'decided_by')).toEqual(['person:Maya Chen@3']);
    expect(rel(facts, 'mentions')).toEqual(['person:Priya Raman@4-6', 'person:José Núñez@4-6']);
    expect(rel(facts, 'part_of')).toEqual(['project:Project Aurora@7']);
    expect(rel(facts, 'has_status')).toEqual(['status:accepted@8']);
    // YAML turns an unquoted date into a Date; it is kept as the day it names.
    expect(rel(facts, 'dated')).toEqual(['date:2026-03-14@9']);
    expect(rel(facts, 'tagged')).toEqual(['tag:adr@10', 'tag:storage@10']);
  });

  it('finds wikilinks, relative markdown links, #tags, @mentions and dates in the body, with their lines', () => {
    const facts = extractGraphFacts(
      md(
        [
          '# Weekly',
          '## Decisions',
          'Met [[Maya Chen|Maya]] about [[Storage#Why]]; see [the review](../meetings/Storage%20review.md) and [site](https://example.com/a.md).',
          'Ping @lukas.becker before 2026-05-18. #release #2026 #sync/relay',
          '```',
          '[[Not a link]] #not-a-tag 2026-01-01',
          '```',
        ].join('\n'),
      ),
    );
    expect(rel(facts, 'links_to')).toEqual(['ref:Maya Chen@3', 'ref:Storage@3', 'ref:Storage review@3']);
    expect(rel(facts, 'tagged')).toEqual(['tag:release@4', 'tag:sync/relay@4']);
    expect(rel(facts, 'mentions')).toContain('person:lukas.becker@4');
    expect(rel(facts, 'mentions_date')).toEqual(['date:2026-05-18@4']);
    // Headings are no entities (each chunk carries its own); their links would count like any line's.
    expect(facts.relations.some((r) => r.dst.name === 'Decisions')).toBe(false);
    // Mentions keep every line a fact was seen on.
    expect(facts.mentions.filter((m) => m.entity.type === 'ref').map((m) => m.line)).toEqual([3, 3, 3]);
  });

  it('keeps capitalised names as entities only where a sentence does not start with them', () => {
    const facts = extractGraphFacts(
      md(['Ship the release (codename Kestrel) with Harbor Health.', 'Pilot customers get it first.', 'The Kestrel beta starts Monday.', '| Version | Codename |', '|---|---|', '| 1.0 | Osprey |'].join('\n')),
    );
    const names = [...new Set(facts.mentions.filter((m) => m.entity.type === 'name').map((m) => m.entity.name))].sort();
    // Mid-sentence, multi-word and table-cell names count; a sentence-initial "Kestrel" counts because
    // the note also uses it mid-sentence. "Ship" and "Pilot" only start sentences, "Monday" is a day,
    // "Version" and "Codename" head a table: none is kept.
    expect(names).toEqual(['Harbor Health', 'Kestrel', 'Osprey']);
    expect(facts.mentions.every((m) => m.strong)).toBe(true);
    // Leading stopwords are not part of a name ("The Kestrel" is Kestrel).
    expect(facts.mentions.filter((m) => m.entity.name === 'Kestrel').map((m) => m.line)).toEqual([1, 3]);
    expect(rel(facts, 'mentions')).toEqual(['name:Kestrel@1', 'name:Harbor Health@1', 'name:Osprey@6']);
  });

  it('keeps one mention per entity and chunk when told the chunks', () => {
    const text = ['Kestrel ships soon, said Harbor Health.', 'Then Harbor Health asked again.', 'Harbor Health, once more.'].join('\n');
    const perLine = extractGraphFacts(md(text)).mentions.filter((m) => m.entity.name === 'Harbor Health');
    expect(perLine.map((m) => m.line)).toEqual([1, 2, 3]);
    const perChunk = extractGraphFacts({ ...md(text), chunkOf: (line) => (line <= 2 ? 0 : 1) }).mentions.filter((m) => m.entity.name === 'Harbor Health');
    expect(perChunk.map((m) => m.line)).toEqual([1, 3]);
  });

  it('reads imports and top-level symbols from code in several languages', () => {
    const code = (relPath: string, text: string) => extractGraphFacts({ relPath, type: 'code', lines: text.split('\n'), from: 0, frontmatter: {} });
    const ts = code('a.ts', "import { x } from './store.ts';\nimport type { Y } from 'zod';\nconst fs = require('node:fs');\nexport async function syncAll() {}\nexport class Relay {}\nexport const retry = (n) => n;");
    expect(rel(ts, 'imports')).toEqual(['module:./store.ts@1', 'module:zod@2', 'module:node:fs@3']);
    expect(rel(ts, 'defines')).toEqual(['symbol:syncAll@4', 'symbol:Relay@5', 'symbol:retry@6']);
    const py = code('c.py', 'from collections import deque\nimport hashlib\n\ndef merge(a, b):\n    pass\nclass Clock:\n    pass');
    expect(rel(py, 'imports')).toEqual(['module:collections@1', 'module:hashlib@2']);
    expect(rel(py, 'defines')).toEqual(['symbol:merge@4', 'symbol:Clock@6']);
    const go = code('c.go', 'package relay\n\nimport (\n\t"time"\n\t"github.com/acme/aurora/sync"\n)\n\ntype Config struct {\n}\nfunc (c *Config) Tombstones() int {\n\treturn 30\n}');
    expect(rel(go, 'imports')).toEqual(['module:time@4', 'module:github.com/acme/aurora/sync@5']);
    expect(rel(go, 'defines')).toEqual(['symbol:Config@8', 'symbol:Tombstones@10']);
    // Code files carry no prose rules: a capitalised word in code is not a name.
    expect(ts.mentions.some((m) => m.entity.type === 'name')).toBe(false);
  });

  it('survives hostile input: huge lines, NUL bytes, unbalanced brackets, and caps its output', () => {
    const lines = ['[[', '[[a]]'.repeat(10), 'x'.repeat(100_000) + ' Kestrel', '\u0000#tag [[\u0000]]', ...Array.from({ length: 5000 }, (_, i) => `[[Note ${i}]] mentions Person${i} Name`)];
    const facts = extractGraphFacts(md(lines.join('\n')));
    expect(facts.relations.length).toBeLessThanOrEqual(2000);
    expect(facts.mentions.length).toBeLessThanOrEqual(8000);
    expect(facts.relations.find((r) => r.dst.name === 'a')?.line).toBe(2);
    // A 100 kB line (minified, generated) contributes nothing.
    expect(facts.mentions.some((m) => m.line === 3)).toBe(false);
  });
});

describe('names that are not entities', () => {
  const names = (text: string) => [...new Set(extractGraphFacts(md(text)).mentions.filter((m) => m.entity.type === 'name').map((m) => m.entity.name))].sort();

  it('drops buttons, menus and imperatives of English instructions, keeping the people and products', () => {
    const text = [
      'Click **Save**, then **Close**. Open the settings and see [[Setup]].',
      'Choose **Settings > Sync > Turn on** and press **Continue**; use **Reset** to undo.',
      'Check the log in Help > Show log. Create a folder with **New folder**.',
      'Grace Okoye wrote this guide for Inkwell; ask Grace Okoye or Acme Cloud support.',
      'Edit `Config.yaml` or README.md, then restart Inkwell.',
    ].join('\n');
    expect(names(text)).toEqual(['Acme Cloud', 'Grace Okoye', 'Inkwell']);
    // A verb before a name at the start of a step, and the interface place after it, are no part of
    // the name; an interface word inside one is ("New York").
    expect(names('See Grace Okoye about it. Relaunch Inkwell once. We met Grace Okoye in New York, then in New York again; open the Inkwell Settings.')).toEqual(['Grace Okoye', 'Inkwell', 'New York']);
  });

  it('drops the same in Russian: imperatives, infinitives, button labels and menu paths', () => {
    const text = [
      'Нажмите **Сохранить**, затем **Закрыть**. Откройте настройки.',
      'Выберите **Настройки > Синхронизация > Включить** и нажмите **Войти**.',
      'Проверьте журнал в разделе Справка > Журнал. Потом снова Выйти и Войти.',
      'Экран конфликтов придумала Анна Волкова; пилот прошёл в компании Северный Ветер у Анна Волкова.',
    ].join('\n');
    expect(names(text)).toEqual(['Анна Волкова', 'Северный Ветер']);
  });

  it('drops a word the note mostly writes in lower case, but not an acronym', () => {
    const text = ['The Sync tab shows when sync last ran; sync runs every five minutes.', 'The relay speaks QUIC, and quic is what the logs call it, and Kestrel ships in May.'].join('\n');
    expect(names(text)).toEqual(['Kestrel', 'QUIC']);
    expect(names('Export the PDFs and the URLs to Kestrel.')).toEqual(['Kestrel']);
  });

  it('does not link embedded images and assets, and reads a possessive as its name', () => {
    const facts = extractGraphFacts(md('Open the trash (![[lucide-trash-2.svg]]) or see ![[diagram.png]] and [[Setup]].\nThe rollout at Greenway’s depots and Greenway sites.'));
    expect(rel(facts, 'links_to')).toEqual(['ref:Setup@1']);
    expect(names('The rollout at Greenway’s depots, then at Greenway sites and Greenway-specific ones.')).toEqual(['Greenway']);
  });

  it('reads links in tables and with .md, and none inside inline code', () => {
    const facts = extractGraphFacts(md(['| Syntax | See |', '|---|---|', '| `[[Link]]` shows `#tag` | [[Internal links\\|Links]] and [[Embed files.md]] |'].join('\n')));
    expect(rel(facts, 'links_to')).toEqual(['ref:Internal links@3', 'ref:Embed files@3']);
    expect(rel(facts, 'tagged')).toEqual([]);
  });
});

describe('lower-case uses of a name', () => {
  it('counts a word of prose, not a part of a word, an address or a path', () => {
    const prose = 'the graph view. A graph, (graph) graphs github.com/graph /graph/ graph.md "graph" a graph. Then graph';
    expect(lowerCaseUses(prose, 'Graph')).toBe(6);
    expect(lowerCaseUses(prose, 'Graph', () => proseWordCounts(prose))).toBe(6);
    expect(lowerCaseUses(prose, 'GRAPH', () => proseWordCounts(prose))).toBe(0);
  });

  it('counts from the note’s word counts exactly as by scanning for the name', () => {
    const random = prng(11);
    const pick = (s: string) => s[Math.floor(random() * s.length)]!;
    const alphabet = 'aabbé1 \n\t.,;:!?()"\'«»“”*_/-~ёЁ';
    for (let round = 0; round < 2000; round++) {
      const prose = Array.from({ length: 1 + Math.floor(random() * 60) }, () => pick(alphabet)).join('');
      const counts = proseWordCounts(prose);
      for (const name of ['Ab', 'A', 'B1', 'Ba', 'Aé', 'Ёa', 'A-b', 'A.b', 'Ab_']) {
        expect(lowerCaseUses(prose, name, () => counts), `${JSON.stringify(prose)} ${name}`).toBe(lowerCaseUses(prose, name));
      }
    }
  });
});
