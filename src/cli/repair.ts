/**
 * `synapsis repair`: rebuilds a damaged or lost store. The old file is set aside
 * (synapsis.db.damaged-<time>), a new store starts with the roots and embeddings that can still be
 * read (rebuildStore), and an index run over the roots re-chunks the files, embedding only the
 * texts whose vectors were lost.
 */
import type { Engine } from '../engine/engine.ts';
import { rebuildStore, type StoreRebuild } from '../engine/store/repair.ts';
import type { IndexReport } from '../shared/contract.ts';

export interface RepairResult {
  rebuild: StoreRebuild;
  index: IndexReport;
}

export async function repairWorkspace(
  dataDir: string,
  folders: readonly string[],
  withEngine: <T>(fn: (engine: Engine) => Promise<T>) => Promise<T>,
): Promise<RepairResult> {
  const rebuild = rebuildStore(dataDir, { folders });
  const index = await withEngine((engine) => engine.call('index/run', {}));
  return { rebuild, index };
}

export function formatRepair(r: RepairResult): string {
  const b = r.rebuild;
  const lines = [
    b.set_aside ? `the old store is kept as ${b.set_aside}` : 'there was no store file: a new one was started',
    `roots (from the ${b.roots_from === 'store' ? 'old store' : b.roots_from === 'recorded' ? 'record beside the store' : 'folders named'}): ${b.roots.map((x) => x.path).join(', ')}`,
    `embeddings kept: ${b.embeddings}${b.unreadable_ranges > 0 ? ` (${b.unreadable_ranges} damaged ranges skipped)` : ''}; newly embedded: ${r.index.embedded}`,
    ...(b.threads > 0 ? [`conversations kept: ${b.threads} (${b.turns} questions)`] : []),
    `indexed ${r.index.indexed}, skipped ${r.index.skipped}, failed ${r.index.failed} of ${r.index.files_seen} files; ${r.index.chunks_total} chunks in the index`,
  ];
  if (b.missing_roots.length > 0) lines.push(`left out (the folder no longer exists): ${b.missing_roots.join(', ')}`);
  return lines.join('\n');
}
