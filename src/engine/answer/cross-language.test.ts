/**
 * A question in another language than its notes, with the real multilingual embedder: the reader
 * shares no word with the notes, so it reads by meaning (sentence vectors) and shows the closest
 * sentences as a partial answer, saying so; without an embedder it cannot, and says what it lacks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ANSWERABLE_FEATURES, FEATURE_NAMES } from './reader/features.ts';
import { SHARED_DIR, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../engine.ts';

const E5 = path.join(SHARED_DIR, 'models', 'multilingual-e5-small.Q4_0.gguf');
const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
});
afterAll(() => temp.cleanup());

const ENGLISH = {
  'recovery.md': '# File recovery\n\nObsidian saves a snapshot of each note while you edit it. To restore a deleted note, open the File recovery plugin and pick the snapshot you need.\n',
  'sync.md': '# Sync\n\nSync keeps the version history of your notes for one year on the server. It also syncs your settings and themes between devices.\n',
  'themes.md': '# Themes\n\nA theme changes the colours and fonts of the app. Community themes can be installed from the settings.\n',
};

const RUSSIAN = {
  'publish.md': '# Obsidian Publish\n\nСайты Obsidian Publish размещаются на серверах компании в Монреале. В Obsidian откройте Settings → Publish → Custom domain и введите свой домен. Для Cloudflare нужна запись CNAME на publish.obsidian.md, а шифрование выберите полное.\n',
  'sync.md': '# Синхронизация\n\nSync хранит историю версий заметок один год. Настройки и темы тоже синхронизируются между устройствами, в том числе Sync Plus.\n',
  'themes.md': '# Темы\n\nТема меняет цвета и шрифты приложения. Темы сообщества ставятся из настроек, раздел Appearance.\n',
};

/** A profile under whose bars every word-by-word quote is Not in your notes (every probability sigmoid(-5)). */
function doubtingProfile(): string {
  const file = path.join(temp.make('syn-xlang-profile-'), 'profile.json');
  const zeros = (names: readonly string[]) => names.map(() => 0);
  const answerable = { features: [...ANSWERABLE_FEATURES], mean: zeros(ANSWERABLE_FEATURES), scale: ANSWERABLE_FEATURES.map(() => 1), weights: zeros(ANSWERABLE_FEATURES), bias: -5, at: 0.5 };
  fs.writeFileSync(file, JSON.stringify({ version: 1, features: [...FEATURE_NAMES], mean: zeros(FEATURE_NAMES), scale: FEATURE_NAMES.map(() => 1), weights: zeros(FEATURE_NAMES), bias: -5, answered_at: 0.9, abstain_below: 0.5, answerable }));
  return file;
}

function open(embedModels: string[], readerProfile?: string) {
  const engine = createEngine({ dataDir: temp.make('syn-xlang-data-'), env: {}, config: { embedModels, llmThreads: 1, gpu: 'off', ...(readerProfile ? { readerProfile } : {}) } });
  engines.push(engine);
  return engine;
}

describe('a question in another language than the notes', () => {
  it('is answered by meaning with a multilingual embedder: the closest sentence first, partly answered, the reason named', async () => {
    const engine = open([E5]);
    await engine.index([temp.make('syn-xlang-en-', ENGLISH)]);
    const a = await engine.answer('Как восстановить случайно удалённую заметку?');
    expect(a.outcome).toBe('partial');
    expect(a.answer).toMatch(/restore a deleted note/);
    expect(a.citations.map((c) => path.basename(c.path))).toContain('recovery.md');
    expect(a.limits.map((l) => l.code)).toContain('read_by_meaning');
    expect(a.limits.map((l) => l.code)).not.toContain('terms_never_mentioned');
  }, 240_000);

  it('is read by meaning when the words it shares with the notes (product names) read as no answer', async () => {
    const profile = doubtingProfile();
    const engine = open([E5], profile);
    await engine.index([temp.make('syn-xlang-ru-', RUSSIAN)]);
    const a = await engine.answer('Which CNAME record does Obsidian Publish need for a custom domain?');
    // The notes' Latin names and settings give a word-by-word quote; the scorer's bars say no; the meaning reads on.
    expect(a.reader?.outcome).not.toBe('not_found');
    expect(a.outcome).toBe('partial');
    expect(a.answer).toMatch(/Custom domain|CNAME на publish\.obsidian\.md/);
    expect(a.citations.map((c) => path.basename(c.path))).toContain('publish.md');
    expect(a.limits.map((l) => l.code)).toContain('read_by_meaning');
    // Over notes in the question's script the same bars stand: Not in your notes.
    const same = open([E5], profile);
    await same.index([temp.make('syn-xlang-en3-', ENGLISH)]);
    const b = await same.answer('How long does Sync keep the version history?');
    expect(b.outcome).toBe('not_found');
    expect(b.limits.map((l) => l.code)).not.toContain('read_by_meaning');
  }, 240_000);

  it('without an embedder, is not answered, and the words the notes lack are named', async () => {
    const engine = open([]);
    await engine.index([temp.make('syn-xlang-en2-', ENGLISH)]);
    const a = await engine.answer('Как восстановить случайно удалённую заметку?');
    expect(a.outcome).toBe('not_found');
    expect(a.limits.map((l) => l.code)).not.toContain('read_by_meaning');
    expect(a.limits.map((l) => l.code)).toContain('terms_never_mentioned');
  }, 120_000);
});
