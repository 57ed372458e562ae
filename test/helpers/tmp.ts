import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Temporary folders removed after each test file; `files` maps relative paths to contents. */
export class TempDirs {
  private readonly dirs: string[] = [];

  make(prefix = 'synapsis-test-', files: Record<string, string | Uint8Array> = {}): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    this.dirs.push(dir);
    writeFiles(dir, files);
    return dir;
  }

  cleanup(): void {
    for (const d of this.dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  }
}

export function writeFiles(dir: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

export const SHARED_DIR = path.resolve(import.meta.dirname, '..', '..', '..', 'shared');
export const SAMPLE_VAULT = path.resolve(import.meta.dirname, '..', '..', 'resources', 'sample-vault');
export const SAMPLE_QUESTIONS = path.resolve(import.meta.dirname, '..', '..', 'resources', 'sample-vault.questions.json');
