import type { Command } from 'commander';
import { STORE_DAMAGED } from '../../engine/store/integrity.ts';
import type { HealthReport } from '../../shared/contract.ts';
import { progressText } from '../../shared/progress-text.ts';
import { terminalLine } from '../../shared/terminal-safe.ts';
import { ChecksFailed, option, repeatable, type RegisteredCommand } from '../command.ts';

/** `health/get`; with --metrics, the Prometheus text of the traces (not a contract method: the library's `metrics()`). */
export const health: RegisteredCommand = {
  name: 'health',
  examples: ['synapsis health', 'synapsis health --json', 'synapsis health --metrics'],
  register: (parent, { io, globals, print, withReader }) =>
    parent
      .command('health')
      .description('what is indexed, what was skipped or failed and why, and what is degraded')
      .addOption(option('--metrics', 'print answer counters and per-stage latency histograms in Prometheus text format'))
      .addOption(repeatable('--allow <sensitivity>', 'also count documents with this sensitivity and show their warnings, e.g. restricted (repeatable)'))
      .action(async (cmdOpts: { metrics?: boolean; allow?: string[] }, cmd: Command) => {
        const opts = globals(cmd);
        await withReader(opts, async (engine) => {
          if (cmdOpts.metrics) {
            io.out(engine.metrics());
            return;
          }
          const report = await engine.call('health/get', { allow_sensitivity: cmdOpts.allow ?? [] });
          print(opts, report, formatHealth(report));
          if (report.degradations.some((d) => d.startsWith(STORE_DAMAGED))) throw new ChecksFailed();
        });
      }),
};

function formatHealth(h: HealthReport): string {
  const types = Object.entries(h.documents.by_type)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  const lines = [
    `status: ${h.status}${h.degradations.length ? ` (${h.degradations.join('; ')})` : ''}`,
    `data dir: ${h.data_dir} (schema v${h.schema_version}, index ${h.index_version})`,
    `roots: ${h.roots.length === 0 ? 'none' : h.roots.map((r) => terminalLine(r.path)).join(', ')}`,
    `documents: ${h.documents.indexed} indexed${types ? ` (${types})` : ''}, ${h.documents.skipped} skipped, ${h.documents.failed} failed`,
    `chunks: ${h.chunks}`,
  ];
  const embed = h.models?.embed;
  const vectors = h.vectors;
  lines.push(
    `embedding model: ${embed ? `${embed.name} (${embed.id})` : 'none (lexical retrieval only; synapsis models add <file.gguf>)'}`,
    `rerank model: ${h.models?.rerank ? `${h.models.rerank.name} (${h.models.rerank.id})` : 'none (results are not reranked)'}`,
  );
  if (embed && vectors) {
    lines.push(`vectors: ${vectors.count}${vectors.backend ? ` in ${vectors.backend}` : ''}${vectors.dimension ? `, dim ${vectors.dimension}` : ''}${vectors.pending ? `, ${vectors.pending} waiting` : ''}`);
  }
  if (h.models) lines.push(`llm runtime: ${h.models.gpu ? `GPU (${h.models.gpu})` : 'CPU'}, ${h.models.threads} threads`);
  if (h.progress) {
    lines.push(`indexing: ${progressText(h.progress)}`);
    if (h.progress.folders.length > 1) for (const f of h.progress.folders) lines.push(`  ${terminalLine(f.root)}: ${progressText(f)}`);
  }
  if (h.pending_jobs > 0) lines.push(`pending: ${h.pending_jobs} files from an interrupted run (synapsis index finishes them)`);
  if (h.issues.length > 0) {
    lines.push('files skipped, failed or read with warnings:');
    for (const i of h.issues) lines.push(`  ${i.status}: ${terminalLine(i.path)} — ${i.reason}`);
  }
  return lines.join('\n');
}
