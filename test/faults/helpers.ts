import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { REPLY_LIMIT_MS } from '../helpers/limits.ts';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const BIN = path.join(ROOT, 'bin', 'synapsis.js');
export const FIXTURES = path.join(import.meta.dirname, 'fixtures');

/** Runs a TypeScript file of the repo in a fresh Node process (through tsx, like bin/synapsis.js). */
export function spawnTs(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', file, ...args], { cwd: ROOT, env, stdio: 'pipe' });
}

/** Resolves with the first stdout line of `child` that matches `pattern` (rejects when it exits first). */
export function waitForLine(child: ChildProcessWithoutNullStreams, pattern: RegExp, timeoutMs = REPLY_LIMIT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; stdout: ${buffer}; stderr: ${stderr}`)), timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (t: string) => void (stderr += t));
    child.stdout.on('data', (t: string) => {
      buffer += t;
      const line = buffer.split('\n').find((l) => pattern.test(l));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before a line matching ${pattern}; stdout: ${buffer}; stderr: ${stderr}`));
    });
  });
}

export function exited(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
}

/** Runs the synapsis CLI in a child process; resolves with its exit code and output. */
export function runCliProcess(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => void (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => void (stderr += t));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Nearest-rank percentile of a list of numbers. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}
