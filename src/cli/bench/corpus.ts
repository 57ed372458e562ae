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
