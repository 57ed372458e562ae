/**
 * How long `synapsis` takes as a whole process, the way a person or a script runs it: `--help`, and
 * a search of the sample vault (indexed lexically beforehand), each against `node -e 0` on the
 * same machine, for the built CLI (out/cli, scripts/build-cli.mjs) and for the sources through tsx.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliEntry } from '../../../bin/cli-entry.js';
import { createEngine } from '../../engine/index.ts';
import { percentile } from '../eval/metrics.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const BIN = path.join(REPO_ROOT, 'bin', 'synapsis.js');
export const CLI_START_QUERY = 'why did we postpone QUIC';

export interface CliTimes {
  help_ms: number;
  search_ms: number;
}

export interface CliStartResult {
  runs: number;
  node_ms: number;
  /** null: out/cli is missing or older than a source (`reason`). */
  built: CliTimes | null;
  source: CliTimes;
  reason?: string;
}

/** Median wall time of each command over `runs` rounds, the commands taking turns so load spreads evenly. */
export function medianWallTimes(commands: Record<string, { args: string[]; env?: NodeJS.ProcessEnv }>, runs: number): Record<string, number> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (const [name, c] of Object.entries(commands)) {
      const t = performance.now();
      const child = spawnSync(process.execPath, c.args, { cwd: REPO_ROOT, env: { ...process.env, ...c.env }, stdio: ['ignore', 'ignore', 'pipe'] });
      const elapsed = performance.now() - t;
      if (child.status !== 0) throw new Error(`${name} (node ${c.args.join(' ')}) exited with ${child.status}: ${child.stderr.toString().slice(0, 500)}`);
      times[name]!.push(elapsed);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(percentile(v, 50))]));
}

export async function benchCliStart(options: { vault: string; runs?: number; log?: (line: string) => void }): Promise<CliStartResult> {
  const runs = options.runs ?? 7;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-cli-start-'));
  try {
    const engine = createEngine({ dataDir, env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } });
    try {
      await engine.index([options.vault]);
    } finally {
      await engine.dispose();
    }
    const entry = cliEntry(REPO_ROOT);
    const fromSource = { SYNAPSIS_FROM_SOURCE: '1' };
    const search = [BIN, 'search', CLI_START_QUERY, '--k', '5', '--data-dir', dataDir];
    const t = medianWallTimes(
      {
        node: { args: ['-e', '0'] },
        ...(entry.built ? { help: { args: [BIN, '--help'] }, search: { args: search } } : {}),
        sourceHelp: { args: [BIN, '--help'], env: fromSource },
        sourceSearch: { args: search, env: fromSource },
      },
      runs,
    );
    const result: CliStartResult = {
      runs,
      node_ms: t.node!,
      built: entry.built ? { help_ms: t.help!, search_ms: t.search! } : null,
      source: { help_ms: t.sourceHelp!, search_ms: t.sourceSearch! },
      ...(entry.built ? {} : { reason: entry.reason }),
    };
    options.log?.(`cli start: ${JSON.stringify(result)}`);
    return result;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The suite's row: the built CLI's times as a ratio to `node -e 0`, the sources through tsx beside them. */
export function cliStartRow(r: CliStartResult): { target: string; measured: string; goal: string; met: boolean | null } {
  const ratio = (ms: number) => `${(ms / Math.max(1, r.node_ms)).toFixed(1)}x`;
  const tsx = `through tsx: --help ${r.source.help_ms} ms (${ratio(r.source.help_ms)}), search ${r.source.search_ms} ms (${ratio(r.source.search_ms)})`;
  const target = `CLI as a whole process, median of ${r.runs}: synapsis --help; a search of the sample vault (node -e 0: ${r.node_ms} ms)`;
  const goal = '--help < 300 ms, search < 500 ms';
  if (!r.built) return { target, measured: `built CLI not measured: ${r.reason}; ${tsx}`, goal, met: false };
  return {
    target,
    measured: `--help ${r.built.help_ms} ms (${ratio(r.built.help_ms)}), search ${r.built.search_ms} ms (${ratio(r.built.search_ms)}); ${tsx}`,
    goal,
    met: r.built.help_ms < 300 && r.built.search_ms < 500,
  };
}
