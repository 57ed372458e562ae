/**
 * What works and what is degraded (docs/design.md §8): the health report, and the manifest check at
 * start whose outcome it shows until the next indexing run.
 */
import fs from 'node:fs';
import type { HealthReport, IndexProgress } from '../../shared/contract.ts';
import type { Config } from '../core/config.ts';
import type { DenseSource } from '../retrieve/hybrid.ts';
import { languageCovered } from '../lang/detect.ts';
import type { LlamaRuntime } from '../llm/runtime.ts';
import type { ResolvedModel } from '../llm/resolve.ts';
import { embedderChangeLine } from './embedder-change.ts';
import { checkManifest, writeManifest, type IndexManifest } from './manifest.ts';
import { withVaults } from '../ingest/obsidian.ts';
import type { RetrievalProfile } from '../retrieve/profile.ts';
import { integrityLine, type IntegrityReport } from '../store/integrity.ts';
import type { Store } from '../store/store.ts';
import { hiddenCounts, hiddenDocumentPaths } from '../store/queries/documents.ts';
import type { VisibilityPolicy } from '../store/visibility.ts';

export interface HealthDeps {
  store: Store;
  config: Config;
  dataDir: string;
  indexVersion: string;
  dense: readonly DenseSource[];
  runtime: LlamaRuntime;
  profile: RetrievalProfile;
  /** The configured models; a chat model or reranker given in code shows as `custom`. */
  models: { embed: ResolvedModel | null; chat: ResolvedModel | null; rerank: ResolvedModel | null; customChat?: string | undefined; customRerank?: string | undefined };
  /** The store's quick integrity check (run once per engine). */
  integrity: () => IntegrityReport;
  /** What the manifest check at start did, until an indexing run writes a new manifest. */
  manifestRecovery: () => string | null;
  /** The index queue's progress model (the numbers index/status carries). */
  progress?: () => IndexProgress;
}

/**
 * The health report as this caller may see it: documents, chunks, languages, vectors and file
 * warnings of notes the policy hides are left out (counting them would show that such notes exist,
 * and a warning would name one).
 */
export function healthReport(deps: HealthDeps, policy: VisibilityPolicy): HealthReport {
  const { store, config, dataDir, dense, runtime, models } = deps;
  const semantic = dense[0]?.index ?? null;
  const hidden = hiddenCounts(store.db, policy, dense.map((d) => d.index.modelId));
  const hiddenOf = (modelId: string) => hidden.models.get(modelId) ?? { vectors: 0, pending: 0, sentenceVectors: 0, sentencesPending: 0 };
  const degradations: string[] = [];
  const damaged = integrityLine(deps.integrity(), dataDir);
  if (damaged) degradations.push(damaged);
  if (!semantic) degradations.push('no embedding model: lexical retrieval only (synapsis models add <file.gguf>)');
  const embedders = dense.map((d) => {
    const s = d.index.sentences;
    // Sentences of chunks not split yet count as waiting too (about one per chunk until split).
    const h = hiddenOf(d.index.modelId);
    const sentences = s
      ? { vectors: Math.max(0, s.stats().vectors - h.sentenceVectors), pending: Math.max(0, store.countPendingEmbeddings(d.index.modelId, 'sentence') - h.sentencesPending + store.countUnsplitChunks() - hidden.unsplit) }
      : null;
    return {
      id: d.index.modelId,
      name: d.name,
      languages: [...d.languages],
      vectors: Math.max(0, d.index.stats().vectors - h.vectors),
      pending: Math.max(0, store.countPendingEmbeddings(d.index.modelId) - h.pending),
      unavailable: d.index.unavailable,
      sentences,
    };
  });
  for (const d of dense) {
    const who = dense.length > 1 ? `embedding model ${d.name}` : 'embedding model';
    if (d.index.unavailable) degradations.push(`${who} unavailable${dense.length > 1 ? '' : ', lexical retrieval only'}: ${d.index.unavailable}`);
    if (d.index.lastRebuildReason) degradations.push(d.index.lastRebuildReason);
    if (d.index.sentences?.lastRebuildReason) degradations.push(`sentence ${d.index.sentences.lastRebuildReason}`);
  }
  const pendingVectors = embedders[0]?.pending ?? 0;
  // A language the vault holds that no embedding model covers is searched lexically only: say so, and what fixes it.
  const languages = store
    .languageCounts()
    .map((l) => ({ lang: l.lang, chunks: l.chunks - (hidden.languages.get(l.lang) ?? 0) }))
    .filter((l) => l.chunks > 0);
  if (dense.length > 0) {
    const total = languages.reduce((n, l) => n + l.chunks, 0);
    for (const l of languages) {
      if (l.lang === 'und' || l.chunks < Math.max(3, total * 0.01) || dense.some((d) => languageCovered(l.lang, d.languages))) continue;
      degradations.push(`${l.chunks} chunks are in ${l.lang}, which no embedding model covers (${dense.map((d) => `${d.name}: ${d.languages.join(', ')}`).join('; ')}): questions in ${l.lang} are answered lexically. Add a multilingual embedding model (for example multilingual-e5-small) for mixed vaults.`);
    }
  }
  degradations.push(...waitingLines(store, embedders));
  const manifestRecovery = deps.manifestRecovery();
  if (manifestRecovery) degradations.push(manifestRecovery);
  const rt = runtime.status();
  if (rt.gpuFallbackReason) degradations.push(rt.gpuFallbackReason);
  const documents = store.documentCounts();
  for (const d of hidden.documents) {
    documents.total -= d.n;
    documents[d.status] -= d.n;
    const ofType = documents.by_type[d.type];
    if (d.status === 'indexed' && ofType !== undefined) {
      if (ofType > d.n) documents.by_type[d.type] = ofType - d.n;
      else delete documents.by_type[d.type];
    }
  }
  const hiddenPaths = hidden.documents.length > 0 ? hiddenDocumentPaths(store.db, policy) : new Set<string>();
  const custom = (name: string | undefined) => (name === undefined ? null : { id: 'custom', name, path: '' });
  return {
    status: degradations.length > 0 ? 'degraded' : 'ok',
    degradations,
    data_dir: dataDir,
    schema_version: store.schemaVersion,
    index_version: deps.indexVersion,
    roots: withVaults(store.listRoots()),
    documents,
    chunks: store.chunkCount() - hidden.chunks,
    pending_jobs: store.countPendingJobs(),
    issues: store.fileIssues().filter((i) => !hiddenPaths.has(i.path)),
    ...(deps.progress ? { progress: deps.progress() } : {}),
    models: { embed: models.embed, chat: models.chat ?? custom(models.customChat), rerank: models.rerank ?? custom(models.customRerank), gpu: rt.gpu, threads: rt.threads, embedders },
    profile: deps.profile.name,
    languages,
    vectors: { count: embedders[0]?.vectors ?? 0, dimension: semantic?.stats().dimension ?? 0, backend: semantic?.stats().backend ?? null, pending: pendingVectors },
    config: { ...config },
  };
}

interface EmbedderCounts {
  id: string;
  name: string;
  vectors: number;
  pending: number;
  sentences: { pending: number } | null;
}

/**
 * What waits for vectors, per embedding model; for the primary model whose file changed since the
 * last run (health/embedder-change.ts), why all its chunks wait.
 */
function waitingLines(store: Store, embedders: readonly EmbedderCounts[]): string[] {
  const lines: string[] = [];
  const primary = embedders[0];
  const changed = primary ? embedderChangeLine(store, primary.id, primary.pending, primary.vectors) : null;
  if (changed) lines.push(changed);
  const of = (e: EmbedderCounts) => (embedders.length > 1 ? ` of ${e.name}` : '');
  for (const e of embedders) {
    if (e.pending > 0) {
      if (!(changed && e === primary)) lines.push(`${e.pending} chunks wait for embeddings${of(e)} (dense retrieval covers the rest)`);
    } else if (e.sentences && e.sentences.pending > 0) lines.push(`${e.sentences.pending} sentences wait for embeddings${of(e)} (chunk vectors answer meanwhile)`);
  }
  return lines;
}

/**
 * A manifest that cannot be trusted is set aside and written again from the store, the source of
 * truth, whose last committed state is the last good index (each batch is one transaction). The
 * vector index beside it checks itself when loaded and is rebuilt from stored embeddings if torn.
 * With jobs still queued (an interrupted run) the next run writes it instead. Returns the line
 * health shows about it, or null when the manifest was sound.
 */
export function recoverManifest(deps: { store: Store; config: Config; dataDir: string; indexVersion: string; readOnly: boolean; manifest: () => IndexManifest }): string | null {
  const { store, dataDir } = deps;
  const checked = checkManifest(dataDir, deps.indexVersion);
  if (checked.status !== 'corrupt') return null;
  if (deps.readOnly) return `index manifest is corrupt (${checked.reason}): the next indexing run (synapsis index) rewrites it from the store`;
  try {
    fs.renameSync(checked.file, `${checked.file}.corrupt`);
    if (store.countPendingJobs() === 0) writeManifest(dataDir, deps.manifest(), deps.config.keepIndexVersions);
    return `index manifest was corrupt (${checked.reason}): set aside as manifest.json.corrupt and rebuilt from the store`;
  } catch (error) {
    return `index manifest is corrupt (${checked.reason}) and could not be replaced: ${(error as Error).message}`;
  }
}
