/**
 * The model stage of graph extraction (issue 7, item 1): a chat model reads the chunks of notes the
 * rules have already processed and names people, projects, technologies, concepts, decisions and
 * dates, and the relations between them, through a JSON-schema grammar. Only names that occur in
 * the chunk are kept (validateExtraction); code is left to the import and symbol rules; each fact cites the chunk's line where it occurs, and a
 * note's model facts go with it when it changes (writeDocument clears them and its llm_graph flag).
 *
 * Budgeted and resumable: it starts no new note after `budgetMs` (or when told to stop) and the
 * next run continues with the notes not yet done. Restricted notes are never shown to the model.
 */
import type { GraphExtractReport } from '../../shared/contract.ts';
import type { ChatModel } from '../llm/chat.ts';
import { llmPendingDocuments, markLlmGraphDone, openingChunks } from '../store/queries/graph.ts';
import { notesAround, refreshNoteDegrees } from './degrees.ts';
import type { Store, StoredGraph } from '../store/store.ts';
import { extractWithModel } from './llm-extract.ts';

export type LlmGraphReport = GraphExtractReport;

/** Chunks of one note the model reads at most (the opening ones: who, what, decisions). */
export const LLM_CHUNKS_PER_DOCUMENT = 6;

export async function runLlmGraphStage(
  deps: { store: Store; chat: ChatModel; visible: (sensitivity: string | null) => boolean; onProgress?: (done: number, total: number, path: string) => void },
  options: { budgetMs: number; shouldStop?: () => boolean; signal?: AbortSignal },
): Promise<LlmGraphReport> {
  const started = performance.now();
  const { store } = deps;
  const pending = () => llmPendingDocuments(store.db).filter((d) => deps.visible(d.sensitivity));
  const docs = pending();
  const done: string[] = [];
  const report: LlmGraphReport = { documents_done: 0, chunks_read: 0, entities_found: 0, relations_found: 0, documents_pending: docs.length, elapsed_ms: 0, stopped_by_budget: false };
  for (const doc of docs) {
    if (performance.now() - started > options.budgetMs) {
      report.stopped_by_budget = true;
      break;
    }
    if (options.shouldStop?.() || options.signal?.aborted) break;
    const facts: StoredGraph = { relations: [], mentions: [] };
    const chunks = openingChunks(store.db, doc.id, LLM_CHUNKS_PER_DOCUMENT);
    let complete = true;
    const seen = new Set<string>();
    // The budget is checked between notes: a note started is finished (at most LLM_CHUNKS_PER_DOCUMENT chunks).
    for (const c of chunks) {
      if (options.signal?.aborted) {
        complete = false;
        break;
      }
      const found = await extractWithModel(deps.chat, { title: doc.title, text: c.text }, options.signal ? { signal: options.signal } : {});
      report.chunks_read++;
      // A chunk's text lines are the file's lines from start_line on (markdown, text, code); a PDF
      // chunk cites its page locator as a whole.
      const textLines = c.text.split('\n').length;
      const exact = textLines === c.end_line - c.start_line + 1;
      const fragment = exact ? null : c.locator.slice(c.locator.indexOf('#') + 1);
      const lineOf = (i: number) => (exact ? c.start_line + i : c.start_line);
      for (const e of found.entities) {
        const line = lineOf(e.line);
        // Chunks overlap: the same name on the same line is stated once.
        const key = `${e.type}\u0000${e.name}\u0000${line}`;
        if (seen.has(key)) continue;
        seen.add(key);
        facts.relations.push({ src: null, dst: { name: e.name, type: e.type }, type: 'mentions', ordinal: c.ordinal, line, endLine: line, fragment, origin: 'llm' });
      }
      const typeOf = new Map(found.entities.map((e) => [e.name, e.type]));
      for (const r of found.relations) {
        const line = lineOf(r.line);
        facts.relations.push({
          src: { name: r.source, type: typeOf.get(r.source)! },
          dst: { name: r.target, type: typeOf.get(r.target)! },
          type: r.relation,
          ordinal: c.ordinal,
          line,
          endLine: line,
          fragment,
          origin: 'llm',
        });
      }
      report.entities_found += found.entities.length;
      report.relations_found += found.relations.length;
    }
    if (!complete) break;
    // The note may have changed while the model read it: then its facts are stale and it waits for the next run.
    if (markLlmGraphDone(store.db, doc.id, doc.content_hash, () => store.insertGraph(doc.id, facts))) done.push(doc.path);
    report.documents_done++;
    deps.onProgress?.(report.documents_done, docs.length, doc.path);
  }
  // The model's links change the degrees of the notes read and of the notes they now link to.
  if (done.length > 0) await refreshNoteDegrees(store.db, notesAround(store.db, done));
  report.documents_pending = pending().length;
  report.elapsed_ms = Math.round(performance.now() - started);
  return report;
}
