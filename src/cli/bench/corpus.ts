import fs from 'node:fs';
import path from 'node:path';
import { prng } from '../../shared/prng.ts';

export { prng };

const WORDS = (
  'sync relay device merge conflict clock storage sqlite index query vector note meeting decision budget release ' +
  'project team person review incident outage certificate latency throughput partition replica snapshot schema ' +
  'migration offline online cache tombstone operation journal roadmap customer pilot tablet driver warehouse ' +
  'encryption key rotation telemetry dashboard alert runbook handover deploy rollback feature flag beta launch'
).split(' ');

const FIRST = 'Maya Priya Tomás Nadia Lukas Aiko Daniel Sofia Omar Lena Ravi Ines Jonas Mei Pablo Zara Ivan Alma Kofi Noor'.split(' ');
const LAST = 'Chen Raman Herrera Volkova Becker Tanaka Okafor Lindqvist Haddad Novak Iyer Costa Berg Lin Ortega Khan Petrov Diaz Mensah Aziz'.split(' ');
const PROJECTS = 'Aurora Kestrel Osprey Peregrine Harbor Greenway Lumen Atlas Beacon Cobalt'.split(' ');

/**
 * Writes `files` markdown notes (headings, paragraphs, tags, wikilinks) into `dir`, spread over
 * folders of 100. Each note is about `paragraphs` paragraphs long. With `names`, notes also carry
 * what a real vault's graph is made of: `people:` and `project:` front matter and people and
 * project names in running text (400 people, 10 projects).
 */
export function generateMarkdownCorpus(dir: string, files: number, seed = 42, paragraphs = 6, names = false): void {
  const rand = prng(seed);
  const word = () => WORDS[Math.floor(rand() * WORDS.length)]!;
  const person = () => `${FIRST[Math.floor(rand() * FIRST.length)]} ${LAST[Math.floor(rand() * LAST.length)]}`;
  const project = () => PROJECTS[Math.floor(rand() * PROJECTS.length)]!;
  const sentence = (n: number) => {
    const w = Array.from({ length: n }, word);
    w[0] = w[0]!.charAt(0).toUpperCase() + w[0]!.slice(1);
    return `${w.join(' ')}.`;
  };
  for (let i = 0; i < files; i++) {
    const folder = path.join(dir, `f${String(Math.floor(i / 100)).padStart(3, '0')}`);
    fs.mkdirSync(folder, { recursive: true });
    const fm = names ? `\npeople: [${person()}, ${person()}]\nproject: Project ${project()}\ndate: 2026-0${1 + Math.floor(rand() * 9)}-1${Math.floor(rand() * 10)}` : '';
    const parts = [`---\ntitle: Note ${i}\ntags: [${word()}, ${word()}]${fm}\n---\n# Note ${i} about ${word()} ${word()}\n`];
    for (let p = 0; p < paragraphs; p++) {
      if (p % 3 === 0) parts.push(`## ${sentence(3).slice(0, -1)}\n`);
      const extra = names ? ` Then ${person()} asked about ${project()} ${word()} with @${FIRST[Math.floor(rand() * FIRST.length)]!.toLowerCase()}.` : '';
      parts.push(`${Array.from({ length: 4 }, () => sentence(8 + Math.floor(rand() * 8))).join(' ')}${extra} See [[Note ${Math.floor(rand() * files)}]] #${word()}\n`);
    }
    fs.writeFileSync(path.join(folder, `note-${i}.md`), parts.join('\n'));
  }
}

/**
 * What makes a generated note part of a graph, at the density of a real vault. Measured on
 * resources/sample-vault (48 markdown notes, 4.8 chunks each, rule extraction): 5.3 links to other
 * notes, 3.1 tags, 9.1 capitalised names used mid-sentence, 2.9 people, 0.7 projects, 2.4 dates and
 * 0.8 statuses per note, 23.6 distinct entities per note. Names and people are drawn from pools with
 * a Zipf-like skew (a few recur in thousands of notes, most in a few), links go to notes of the same
 * folder and to hub notes (low numbers) as often as to any note; targets are file names (`[[n42]]`).
 */
export interface LinkedNoteParts {
  /** Front-matter lines (tags, people, project, status, date), each ending in a newline. */
  frontMatter: string;
  /** One line per section: a sentence with names, links, a tag or a date. */
  sectionLines: string[];
}

const CODENAMES = 'Kestrel Osprey Peregrine Harbor Greenway Lumen Atlas Beacon Cobalt Falcon Juniper Meridian Nimbus Quarry Sable Tundra Vireo Willow Zephyr Ember'.split(' ');
const THINGS = 'Gateway Ledger Relay Console Bridge Pipeline Vault Studio Engine Portal'.split(' ');
const STATUSES = ['draft', 'accepted', 'done', 'in progress', 'blocked'];

export function linkedNoteParts(i: number, files: number, rand: () => number, sections: number): LinkedNoteParts {
  // Skewed pick in [0, n): most picks land on the first few.
  const skewed = (n: number) => Math.min(n - 1, Math.floor(n * rand() ** 2));
  const person = () => {
    const p = skewed(FIRST.length * LAST.length);
    return `${FIRST[p % FIRST.length]} ${LAST[Math.floor(p / FIRST.length)]}`;
  };
  const codename = () => {
    const c = skewed(CODENAMES.length * THINGS.length);
    return `${CODENAMES[c % CODENAMES.length]} ${THINGS[Math.floor(c / CODENAMES.length)]}`;
  };
  const note = () => {
    const r = rand();
    const j = r < 0.4 ? Math.floor(i / 100) * 100 + Math.floor(rand() * 100) : r < 0.6 ? skewed(Math.min(files, 500)) : Math.floor(rand() * files);
    return `[[n${Math.min(files - 1, j === i ? (j + 1) % files : j)}]]`;
  };
  const tag = () => WORDS[skewed(WORDS.length)]!;
  const date = () => `2026-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`;
  const frontMatter = [
    `tags: [${tag()}, ${tag()}]\n`,
    `people: [${person()}, ${person()}]\n`,
    rand() < 0.7 ? `project: Project ${CODENAMES[skewed(CODENAMES.length)]}\n` : '',
    rand() < 0.8 ? `status: ${STATUSES[Math.floor(rand() * STATUSES.length)]}\n` : '',
    `date: ${date()}\n`,
  ].join('');
  // 9 names, 5 links, 1 inline tag, 1 more person and 1 date spread over the sections.
  const lines = Array.from({ length: sections }, () => [] as string[]);
  const at = () => lines[Math.floor(rand() * sections)]!;
  for (let n = 0; n < 6; n++) at().push(`We spoke with ${person()} about it.`);
  for (let n = 0; n < 3; n++) at().push(`It touches the ${codename()} work.`);
  for (let n = 0; n < 5; n++) at().push(`See ${note()}.`);
  at().push(`Noted on ${date()} #${tag()}`);
  return { frontMatter, sectionLines: lines.map((l) => l.join(' ')) };
}
