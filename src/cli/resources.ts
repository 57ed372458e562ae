/** Files of this installation the CLI uses: the sample vault and its questions, the demo tour and models. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createError } from '../shared/errors.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SAMPLE_VAULT = path.join(REPO_ROOT, 'resources', 'sample-vault');
export const SAMPLE_QUESTIONS = path.join(REPO_ROOT, 'resources', 'sample-vault.questions.json');
/** The demo's models: the workplace's shared GGUF files beside the checkout (never downloaded). */
export const DEMO_MODELS_DIR =
  process.env.SYNAPSIS_DEMO_MODELS ?? [path.join(REPO_ROOT, 'models'), path.join(REPO_ROOT, '..', 'shared', 'models')].find((d) => fs.existsSync(d)) ?? path.join(REPO_ROOT, '..', 'shared', 'models');
export const DEMO_TOUR = path.join(REPO_ROOT, 'resources', 'demo-tour.json');
export const DEMO_EMBED_MODEL = path.join(DEMO_MODELS_DIR, 'all-MiniLM-L6-v2.Q8_0.gguf');
export const DEMO_CHAT_MODEL = path.join(DEMO_MODELS_DIR, 'SmolLM2-135M-Instruct.Q4_1.gguf');
export const PACKAGE_VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

export interface FixtureQuestion {
  id: string;
  question: string;
  kind: string;
  sources: string[];
  answer_contains: string[];
}

export function readQuestions(file: string): FixtureQuestion[] {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw createError('E_SYN_BAD_REQUEST', `Cannot read questions file ${file}: ${(error as Error).message}`);
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) throw new Error('expected a JSON array');
    return parsed as FixtureQuestion[];
  } catch (error) {
    throw createError('E_SYN_BAD_REQUEST', `Questions file ${file} is not valid: ${(error as Error).message}`);
  }
}
