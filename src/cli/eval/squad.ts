/**
 * A SQuAD-format question set (SQuAD 2.0, its translations, SberQuAD's JSON) as a vault of notes
 * and a question file in the fixture format, for training the answer reader's scorer: each article
 * becomes notes of a few paragraphs under its title (a paragraph is never a whole vault), each
 * question asks the whole vault, and a share of the answerable ones is asked again with its note left
 * out of the search (the right answer then is "not in your notes").
 */
import fs from 'node:fs';
import path from 'node:path';
import { createError } from '../../shared/errors.ts';

export interface SquadOptions {
  /** Use the first N articles only. */
  articles?: number;
  /** Paragraphs per note. Default 4. */
  paragraphsPerNote?: number;
  /** Every how-many-th answerable question is asked again with its note left out. Default 3; 0: none. */
  removedEvery?: number;
  /** At most this many questions per article (answerable and unanswerable alike). */
  questionsPerArticle?: number;
}

interface SquadQa {
  id?: unknown;
  question?: unknown;
  answers?: unknown;
  is_impossible?: unknown;
}

interface SquadFile {
  data?: { title?: unknown; paragraphs?: { context?: unknown; qas?: SquadQa[] }[] }[];
}

/** A note's file name from an article title: letters, digits, spaces and a few marks. */
const fileName = (title: string) => title.replace(/_/g, ' ').replace(/[^\p{L}\p{N} .,'-]+/gu, ' ').replace(/\s+/g, ' ').trim().slice(0, 80) || 'Untitled';

/** Writes the vault under `outDir/vault` and the questions to `outDir/questions.json`; returns their paths and counts. */
export function squadToVault(file: string, outDir: string, options: SquadOptions = {}): { vault: string; questions: string; notes: number; asked: number } {
  let parsed: SquadFile;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as SquadFile;
  } catch (error) {
    throw createError('E_SYN_BAD_REQUEST', `Cannot read the SQuAD-format file ${file}: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed?.data)) throw createError('E_SYN_BAD_REQUEST', `${file} is not in SQuAD format (no "data" list of articles)`);
  const per = Math.max(1, options.paragraphsPerNote ?? 4);
  const every = options.removedEvery ?? 3;
  const vault = path.join(outDir, 'vault');
  fs.rmSync(vault, { recursive: true, force: true });
  fs.mkdirSync(vault, { recursive: true });
  const questions: Record<string, unknown>[] = [];
  let notes = 0;
  let answerable = 0;
  const articles = options.articles ? parsed.data.slice(0, options.articles) : parsed.data;
  for (const article of articles) {
    const title = fileName(String(article.title ?? 'Untitled'));
    const paragraphs = (article.paragraphs ?? []).filter((p) => typeof p.context === 'string' && p.context.trim());
    let asked = 0;
    for (let start = 0; start < paragraphs.length; start += per) {
      const group = paragraphs.slice(start, start + per);
      const rel = `${title}/${title} ${start / per + 1}.md`;
      fs.mkdirSync(path.join(vault, title), { recursive: true });
      fs.writeFileSync(path.join(vault, rel), `# ${title}\n\n${group.map((p) => String(p.context).trim()).join('\n\n')}\n`);
      notes++;
      for (const p of group) {
        for (const qa of p.qas ?? []) {
          if (options.questionsPerArticle && asked >= options.questionsPerArticle) break;
          if (typeof qa.question !== 'string' || !qa.question.trim()) continue;
          const id = String(qa.id ?? `${title}-${questions.length}`);
          const texts = Array.isArray(qa.answers) ? [...new Set((qa.answers as { text?: unknown }[]).flatMap((a) => (typeof a?.text === 'string' && a.text.trim() ? [a.text.trim()] : [])))] : [];
          asked++;
          if (qa.is_impossible === true || texts.length === 0) {
            questions.push({ id, question: qa.question.trim(), kind: 'unanswerable', sources: [], answer_contains: [] });
            continue;
          }
          questions.push({ id, question: qa.question.trim(), kind: 'single', sources: [rel], answer_any: texts });
          if (every > 0 && answerable++ % every === 0) {
            questions.push({ id: `${id}-removed`, question: qa.question.trim(), kind: 'note removed', sources: [], answer_contains: [], exclude: [rel] });
          }
        }
      }
    }
  }
  const out = path.join(outDir, 'questions.json');
  fs.writeFileSync(out, `${JSON.stringify(questions, null, 1)}\n`);
  return { vault, questions: out, notes, asked: questions.length };
}
