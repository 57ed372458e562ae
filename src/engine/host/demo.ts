/**
 * The demo workspace: the sample vault indexed into a data dir of its own (never the user's), with
 * the smallest shared models when they are present, and a guided tour of questions that show what
 * Synapsis does. Used by `synapsis web --demo`, the desktop app's "Try the demo" and the portable
 * demo bundle.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { TourStep } from '../../shared/contract.ts';
import { createError } from '../../shared/errors.ts';
import type { EngineOptions } from '../engine.ts';

export interface DemoSetup {
  /** The sample vault (read only: the demo never writes into it). */
  vault: string;
  /** The questions fixture (resources/sample-vault.questions.json). */
  questionsFile: string;
  /** The guided tour (resources/demo-tour.json): ids of the fixture with what each shows. */
  tourFile: string;
  /** The demo's own data dir. */
  dataDir: string;
  /** A folder with GGUF models; the demo uses the multilingual embedder (or MiniLM) when one is there. */
  modelsDir?: string | undefined;
}

/** Embedding models the demo looks for, best first: e5 (the measured file, else the public one) handles the Russian question. */
const DEMO_EMBEDDERS = ['multilingual-e5-small.Q4_0.gguf', 'multilingual-e5-small-q8_0.gguf', 'all-MiniLM-L6-v2.Q8_0.gguf'];

/** The default demo data dir: per user, in the OS temp folder (throwaway, survives restarts until cleaned). */
export function defaultDemoDir(): string {
  const user = (() => {
    try {
      return os.userInfo().username;
    } catch {
      return 'user';
    }
  })();
  return path.join(os.tmpdir(), `synapsis-demo-${user.replace(/[^\w.-]/g, '_')}`);
}

/**
 * Makes the demo data dir safe to write to before anything is: created 0700 when missing, and an
 * existing one must be a real folder (not a link) of this user that others cannot write to. The
 * default one lies in the shared temp folder under a name anyone can guess, so another user could
 * have made it first, to read the demo's store or plant files in it. One of this user's that others
 * can read (made by an older version) is closed to 0700. `uid` is the owner expected (tests).
 */
export function prepareDemoDir(dir: string, uid: number | undefined = process.getuid?.()): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw createError('E_SYN_STORE_FAILED', `Cannot use ${dir} as the demo data dir: ${(error as Error).message}`);
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    // Not recursive: a folder someone else made in between fails with EEXIST instead of being adopted.
    fs.mkdirSync(dir, { mode: 0o700 });
    st = fs.lstatSync(dir);
  }
  const refuse = (why: string) => createError('E_SYN_STORE_FAILED', `Not using ${dir} as the demo data dir: ${why}. Remove it, or name another with --demo-dir (SYNAPSIS_DEMO_DIR in the app).`);
  if (st.isSymbolicLink()) throw refuse('it is a symbolic link');
  if (!st.isDirectory()) throw refuse('it is not a folder');
  if (uid !== undefined && st.uid !== uid) throw refuse(`it belongs to another user (uid ${st.uid})`);
  if (process.platform !== 'win32' && (st.mode & 0o002) !== 0) throw refuse('anyone can write to it');
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
    try {
      fs.chmodSync(dir, 0o700);
    } catch {
      // a file system without modes (FAT): nothing to close
    }
  }
}

export function demoModels(setup: DemoSetup): { embed: string | null } {
  if (!setup.modelsDir) return { embed: null };
  for (const name of DEMO_EMBEDDERS) {
    const file = path.join(setup.modelsDir, name);
    if (fs.existsSync(file)) return { embed: file };
  }
  return { embed: null };
}

/**
 * Engine options of the demo: its own data dir, no environment overrides from the user's setup.
 * Sentence vectors stay on, as in a user's workspace: without them no quote is badged Answered. The
 * tour is ready once the ~250 passages are embedded; the ~1,000 sentences follow (`synapsis bench
 * demo` times both), paused while a question is answered, and the banner says how far they are.
 */
export function demoEngineOptions(setup: DemoSetup): EngineOptions {
  const { embed } = demoModels(setup);
  return { dataDir: setup.dataDir, env: {}, config: embed ? { embedModel: embed } : {}, warmGraph: true };
}

const FixtureSchema = z.array(z.object({ id: z.string(), question: z.string(), kind: z.string() }).passthrough());
/** A step names a question of the fixture by id, or brings its own (question and kind). */
const TourFileSchema = z.array(z.object({ id: z.string(), question: z.string().optional(), kind: z.string().optional(), shows: z.string(), note: z.string(), graph: z.string().optional() }).strict());

export function loadTour(setup: Pick<DemoSetup, 'questionsFile' | 'tourFile'>): TourStep[] {
  const read = <T>(file: string, schema: z.ZodType<T>): T => {
    try {
      return schema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    } catch (error) {
      throw createError('E_SYN_BAD_REQUEST', `The demo file ${file} is missing or malformed: ${(error as Error).message.slice(0, 200)}`);
    }
  };
  const questions = new Map(read(setup.questionsFile, FixtureSchema).map((q) => [q.id, q]));
  return read(setup.tourFile, TourFileSchema).map((step) => {
    const q = step.question ? { question: step.question, kind: step.kind ?? 'other' } : questions.get(step.id);
    if (!q) throw createError('E_SYN_BAD_REQUEST', `The demo tour names ${step.id}, which ${setup.questionsFile} does not have`);
    return { id: step.id, question: q.question, kind: q.kind, shows: step.shows, note: step.note, ...(step.graph ? { graph: step.graph } : {}) };
  });
}

/** Removes the demo data dir, refusing anything that does not look like one (a typo must not delete a real folder). */
export function removeDemoDir(dir: string): void {
  if (!fs.existsSync(dir)) return;
  const entries = fs.readdirSync(dir);
  const known = new Set(['synapsis.db', 'synapsis.db-wal', 'synapsis.db-shm', 'index', 'models', 'synapsis.lock', 'traces', 'roots.json', 'progress.json']);
  const foreign = entries.filter((e) => !known.has(e) && !e.startsWith('synapsis'));
  if (foreign.length > 0) throw createError('E_SYN_BAD_REQUEST', `Not resetting ${dir}: it holds files the demo did not make (${foreign.slice(0, 3).join(', ')})`);
  fs.rmSync(dir, { recursive: true, force: true });
}
