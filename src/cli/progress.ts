import cliProgress from 'cli-progress';
import type { EventMap } from '../shared/contract.ts';
import { terminalLine } from '../shared/terminal-safe.ts';

export interface ProgressReporter {
  update(event: EventMap['index/progress']): void;
  stop(): void;
}

/** A bar on a terminal; elsewhere (CI, pipes) a plain line at most once a second. */
export function createProgressReporter(stream: NodeJS.WriteStream = process.stderr, quiet = false): ProgressReporter {
  if (quiet) return { update() {}, stop() {} };
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: '{stage} |{bar}| {value}/{total} {unit} | {rate}/s | ETA {eta_s}s | {file}',
        hideCursor: true,
        clearOnComplete: true,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    let stage = '';
    return {
      update(e) {
        const payload = { stage: e.stage === 'embed' || e.stage === 'sentences' ? 'embedding' : 'indexing', unit: unitOf(e.stage), rate: e.rate_per_s, eta_s: e.eta_s ?? '?', file: terminalLine((e.path ?? '').slice(-40)) };
        if (started && stage !== e.stage && (e.stage === 'embed' || e.stage === 'sentences')) {
          bar.stop();
          started = false;
        }
        stage = e.stage;
        if (!started) {
          bar.start(Math.max(e.files_total, 1), e.files_done, payload);
          started = true;
        }
        bar.setTotal(Math.max(e.files_total, 1));
        bar.update(e.files_done, payload);
      },
      stop() {
        if (started) bar.stop();
      },
    };
  }
  let last = 0;
  return {
    update(e) {
      const now = Date.now();
      if (e.stage !== 'done' && e.files_done !== 0 && now - last < 1000) return;
      last = now;
      const eta = e.eta_s === null ? '' : `, ETA ${e.eta_s}s`;
      stream.write(`indexing: ${e.stage} ${e.files_done}/${e.files_total} ${unitOf(e.stage)} (${e.rate_per_s}/s${eta})\n`);
    },
    stop() {},
  };
}

function unitOf(stage: EventMap['index/progress']['stage']): string {
  return stage === 'embed' ? 'chunks' : stage === 'sentences' ? 'sentences' : 'files';
}
