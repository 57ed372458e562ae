import { afterEach, describe, expect, it } from 'vitest';
import { QuotingChat } from '../../../test/helpers/chat.ts';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../engine.ts';
import { sqliteOf } from '../store/connection.ts';
import { appendTurn, createThread, threadTurns } from '../store/queries/threads.ts';
import { rebuildStore } from '../store/repair.ts';
import { Store } from '../store/store.ts';
import { isSynapsisError } from '../../shared/errors.ts';

const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  temp.cleanup();
});

function vault() {
  return temp.make('syn-vault-', {
    'decisions/Storage.md':
      '# ADR-011 Storage decision\n\nOn 2026-03-14 the team chose SQLite over Postgres for the offline cache.\n\nThe decision was approved by Maya Chen after the architecture review.\n',
    'people/Maya Chen.md': '# Maya Chen\n\nMaya leads the sync team and chairs the architecture review.\n',
    'finance/Budget.md': '# Budget 2026\n\nThe travel budget was approved by Oleg Petrov in May.\n',
    'hr/Pay.md': '---\nsensitivity: restricted\n---\n# Pay bands\n\nThe codeword for the salary review is BLUEHERON.\n',
  });
}

function open(dataDir: string) {
  // The reader's own outcome: these tests read what a follow-up quotes (the scorer has tests of its own).
  const engine = createEngine({ dataDir, env: {}, config: { readerProfile: 'none' } });
  engines.push(engine);
  return engine;
}

async function close(engine: Engine) {
  engines.splice(engines.indexOf(engine), 1);
  await engine.dispose();
}

const errorOf = async (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e);

describe('threads', () => {
  it('keeps a conversation: a follow-up is searched with the thread’s terms, and every turn keeps its citations', async () => {
    const root = vault();
    const engine = open(temp.make('syn-data-'));
    await engine.index([root]);
    const first = await engine.call('answer/ask', { query: 'Which database did the team choose for the offline cache in ADR-011?', new_thread: true });
    expect(first.thread).toMatchObject({ turn: 1, searched_as: null, carried: [] });
    const id = first.thread!.id;
    expect(first.citations[0]?.path).toBe('decisions/Storage.md');

    const follow = await engine.call('answer/ask', { query: 'and who approved it?', thread_id: id });
    expect(follow.query).toBe('and who approved it?');
    expect(follow.thread).toMatchObject({ id, turn: 2 });
    expect(follow.thread!.carried).toEqual(expect.arrayContaining(['ADR-011', 'database', 'Storage']));
    expect(follow.thread!.searched_as).toMatch(/^and who approved it .*ADR-011/);
    expect(follow.searched.query).toBe(follow.thread!.searched_as);
    expect(follow.answer).toMatch(/Maya Chen/);
    expect(follow.citations.map((c) => c.path)).toContain('decisions/Storage.md');
    // Asked on its own, the same words also find another approval; in the thread, only the decision's.
    const alone = await engine.call('answer/ask', { query: 'and who approved it?' });
    expect(alone.thread).toBeNull();
    expect(alone.searched.query).toBe('and who approved it?');
    expect(alone.answer).toContain('Oleg');
    expect(follow.answer).not.toContain('Oleg');

    const list = await engine.call('threads/list', {});
    expect(list.threads).toEqual([expect.objectContaining({ id, title: 'Which database did the team choose for the offline cache in ADR-011?', turns: 2 })]);
    const thread = await engine.call('threads/get', { id });
    expect(thread.turns_list.map((t) => [t.ordinal, t.question, t.hidden])).toEqual([
      [1, 'Which database did the team choose for the offline cache in ADR-011?', false],
      [2, 'and who approved it?', false],
    ]);
    expect(thread.turns_list[1]!.searched_as).toBe(follow.thread!.searched_as);
    expect(thread.turns_list[1]!.answer!.citations).toEqual(follow.citations);
    expect(thread.turns_list[1]!.answer!.query).toBe('and who approved it?');
    expect(thread.turns_list.map((t) => t.answer!.thread)).toEqual([first.thread, follow.thread]);

    const exported = await engine.call('threads/export', { id });
    expect(exported.filename).toBe('Which-database-did-the-team-choose-for-the-offline-cache-in-ADR-011.md');
    expect(exported.markdown).toMatch(/^# Which database/);
    expect(exported.markdown).toContain('## and who approved it?');
    expect(exported.markdown).toContain(`_Searched as: ${follow.thread!.searched_as}_`);
    expect(exported.markdown).toMatch(/- \[\d+\] .*`decisions\/Storage\.md:\d+(–\d+)?`/);
    const one = await engine.call('threads/export', { id, turn: 2 });
    expect(one.markdown.startsWith('## and who approved it?')).toBe(true);
    expect(one.markdown).not.toContain('## Which database');
  });

  it('never shows a restricted answer to a request that does not allow it, however the thread was saved', async () => {
    const root = vault();
    const engine = open(temp.make('syn-data-'));
    await engine.index([root]);
    const asked = await engine.call('answer/ask', { query: 'What is the codeword for the salary review?', new_thread: true, context: { allow_sensitivity: ['restricted'] } });
    expect(asked.answer).toContain('BLUEHERON');
    const id = asked.thread!.id;
    // A follow-up asked without the allowance carries the question’s words, never the restricted note’s title.
    const follow = await engine.call('answer/ask', { query: 'and who set it?', thread_id: id });
    expect(follow.thread!.carried).toEqual(expect.arrayContaining(['codeword', 'salary']));
    expect(follow.thread!.carried).not.toContain('Pay');
    expect(JSON.stringify(follow)).not.toContain('BLUEHERON');
    // With the allowance, the same follow-up carries the note’s title.
    const other = await engine.call('answer/ask', { query: 'What is the codeword for the salary review?', new_thread: true, context: { allow_sensitivity: ['restricted'] } });
    const allowed2 = await engine.call('answer/ask', { query: 'and who set it?', thread_id: other.thread!.id, context: { allow_sensitivity: ['restricted'] } });
    expect(allowed2.thread!.carried).toContain('Pay');
    await engine.call('answer/ask', { query: 'Who approved the storage decision ADR-011?', thread_id: id });

    const hidden = await engine.call('threads/get', { id });
    expect(hidden.turns_list[0]).toMatchObject({ hidden: true, answer: null, restricted: true, question: 'What is the codeword for the salary review?' });
    // The follow-up carried terms from the hidden first turn: it is held back with it (what a follow-up
    // carries may name the restricted note); the unrelated third question is not.
    expect(hidden.turns_list.map((t) => t.hidden)).toEqual([true, true, false]);
    expect(JSON.stringify(hidden)).not.toContain('BLUEHERON');
    const md = await engine.call('threads/export', { id });
    expect(md.markdown).not.toContain('BLUEHERON');
    expect(md.markdown).toContain('uses restricted notes and is not shown');
    expect(md.hidden).toBe(2);

    const allowed = await engine.call('threads/get', { id, allow_sensitivity: ['restricted'] });
    expect(allowed.turns_list[0]).toMatchObject({ hidden: false, restricted: true });
    expect(allowed.turns_list[0]!.answer!.answer).toContain('BLUEHERON');
    expect((await engine.call('threads/export', { id, allow_sensitivity: ['restricted'] })).markdown).toContain('BLUEHERON');
  });

  it('counts a restricted note an answer only names (in what was searched) as used', async () => {
    const dataDir = temp.make('syn-data-');
    const engine = open(dataDir);
    await engine.index([vault()]);
    await close(engine);
    const store = new Store(dataDir);
    try {
      const t = createThread(store.db, 'names only', 'now');
      appendTurn(store.db, t.id, { question: 'q', searched_as: null, carried: [], asked_at: 'now', envelope: () => ({}), doc_ids: [], paths: ['hr/Pay.md', 'missing.md'] });
      appendTurn(store.db, t.id, { question: 'q2', searched_as: null, carried: [], asked_at: 'now', envelope: () => ({}), doc_ids: [], paths: ['decisions/Storage.md'] });
      const policy = { allowSensitivity: [] as string[], sensitivityEnable: true };
      expect(threadTurns(store.db, t.id, policy).map((r) => [r.hidden, r.restricted])).toEqual([
        [true, true],
        [false, false],
      ]);
      expect(threadTurns(store.db, t.id, { ...policy, allowSensitivity: ['restricted'] }).map((r) => r.hidden)).toEqual([false, false]);
    } finally {
      store.dispose();
    }
  });

  it('survives a restart and a repair of the store', async () => {
    const root = vault();
    const dataDir = temp.make('syn-data-');
    let engine = open(dataDir);
    await engine.index([root]);
    const a = await engine.call('answer/ask', { query: 'Who chairs the architecture review?', new_thread: true });
    await engine.call('answer/ask', { query: 'and what team does she lead?', thread_id: a.thread!.id });
    await engine.call('threads/rename', { id: a.thread!.id, title: 'Maya' });
    const before = await engine.call('threads/get', { id: a.thread!.id });
    await close(engine);

    engine = open(dataDir);
    expect(await engine.call('threads/get', { id: a.thread!.id })).toEqual(before);
    await close(engine);

    const rebuilt = rebuildStore(dataDir);
    expect(rebuilt).toMatchObject({ threads: 1, turns: 2 });
    engine = open(dataDir);
    await engine.call('index/run', {});
    expect(await engine.call('threads/get', { id: a.thread!.id })).toEqual(before);
    // The thread goes on after the repair.
    const next = await engine.call('answer/ask', { query: 'when?', thread_id: a.thread!.id });
    expect(next.thread!.turn).toBe(3);
  });

  it('saves a turn from a reader beside the writer, and the writer reads it', async () => {
    const dataDir = temp.make('syn-data-');
    const writer = open(dataDir);
    await writer.index([vault()]);
    const reader = createEngine({ dataDir, env: {}, readOnly: true });
    engines.push(reader);
    const asked = await reader.call('answer/ask', { query: 'Who chairs the architecture review?', new_thread: true });
    expect(asked.thread?.turn).toBe(1);
    expect((await writer.call('threads/list', {})).threads.map((t) => t.id)).toEqual([asked.thread!.id]);
    expect((await reader.call('threads/get', { id: asked.thread!.id })).turns_list).toHaveLength(1);
  });

  it('saves the question when asked: interrupted, it keeps the reader\'s quote, and asking it again resumes the turn', async () => {
    const root = vault();
    // A chat model that writes a word every 300 ms: the answer is still being written when it is stopped.
    const engine = createEngine({ dataDir: temp.make('syn-data-'), env: {}, chat: new QuotingChat(300) });
    engines.push(engine);
    await engine.index([root]);
    const question = 'Which database did the team choose for the offline cache in ADR-011?';
    const controller = new AbortController();
    const asked = engine.call('answer/ask', { query: question, new_thread: true }, { signal: controller.signal });
    // Saved at once, before any answer: the conversation and its question.
    await expect.poll(async () => (await engine.call('threads/list', {})).threads.length).toBe(1);
    const id = (await engine.call('threads/list', {})).threads[0]!.id;
    // Once the reader has read the passages, its quote is kept with the question.
    await expect.poll(async () => (await engine.call('threads/get', { id })).turns_list[0]?.interrupted?.quote ?? null, { timeout: 30_000 }).toMatch(/SQLite/);
    controller.abort();
    const stopped = await asked;
    expect(stopped.cancelled).toBe(true);
    expect(stopped.thread).toMatchObject({ id, turn: 1 });
    const interrupted = (await engine.call('threads/get', { id })).turns_list;
    expect(interrupted).toHaveLength(1);
    expect(interrupted[0]).toMatchObject({ question, answer: null, hidden: false, interrupted: { sources: [expect.objectContaining({ locator: expect.stringContaining('decisions/Storage.md') })] } });
    expect((await engine.call('threads/export', { id })).markdown).toContain('_Interrupted: the answer was not finished._');

    // The same question again in the thread resumes its turn: answered, and still one turn.
    const resumed = await engine.call('answer/ask', { query: question, thread_id: id });
    expect(resumed.thread).toMatchObject({ id, turn: 1 });
    const turns = (await engine.call('threads/get', { id })).turns_list;
    expect(turns).toHaveLength(1);
    expect(turns[0]!.interrupted).toBeNull();
    expect(turns[0]!.answer?.answer).toMatch(/SQLite/);
  }, 120_000);

  it('reads the limits an older version stored as text as { code, detail }: a thread\'s answers and the traces', async () => {
    const dataDir = temp.make('syn-data-');
    let engine = open(dataDir);
    await engine.index([vault()]);
    const asked = await engine.call('answer/ask', { query: 'Who approved the flibbertigibbet budget?', new_thread: true });
    expect(asked.limits.length).toBeGreaterThan(0);
    await close(engine);
    const old = ['your files never mention: flibbertigibbet', 'no chat model: quoted answer (the sentences of your files that answer)', 'a note of a version long gone'];
    const store = new Store(dataDir);
    try {
      const db = sqliteOf(store.db);
      const row = db.prepare('SELECT envelope_json FROM thread_turns WHERE thread_id = ?').pluck().get(asked.thread!.id) as string;
      db.prepare('UPDATE thread_turns SET envelope_json = ? WHERE thread_id = ?').run(JSON.stringify({ ...JSON.parse(row), limits: old }), asked.thread!.id);
      db.prepare('UPDATE traces SET limits_json = ?').run(JSON.stringify(old));
    } finally {
      store.dispose();
    }
    engine = open(dataDir);
    const expected = [
      { code: 'terms_never_mentioned', detail: old[0] },
      { code: 'no_chat_model', detail: old[1] },
      { code: 'other', detail: old[2] },
    ];
    const thread = await engine.call('threads/get', { id: asked.thread!.id });
    expect(thread.turns_list[0]!.answer!.limits).toEqual(expected);
    expect(engine.traces().map((t) => t.limits)).toEqual([expected]);
    // Typed limits saved by this version read back as they were saved.
    const next = await engine.call('answer/ask', { query: 'Who chairs the architecture review?', thread_id: asked.thread!.id });
    expect((await engine.call('threads/get', { id: asked.thread!.id })).turns_list[1]!.answer!.limits).toEqual(next.limits);
  });

  it('renames and deletes, and names a thread that does not exist', async () => {
    const engine = open(temp.make('syn-data-'));
    await engine.index([vault()]);
    const t = await engine.call('threads/create', { title: '  Storage\n questions ' });
    expect(t).toMatchObject({ title: 'Storage questions', turns: 0 });
    expect((await engine.call('threads/rename', { id: t.id, title: 'ADR-011' })).title).toBe('ADR-011');
    expect(await engine.call('threads/delete', { id: t.id })).toEqual({ id: t.id, deleted: true });
    expect((await engine.call('threads/list', {})).threads).toEqual([]);

    const missing = await errorOf(engine.call('threads/get', { id: t.id }));
    expect(isSynapsisError(missing) && missing.code).toBe('E_SYN_BAD_REQUEST');
    expect((missing as Error).message).toContain(`No thread ${t.id}`);
    expect(((await errorOf(engine.call('threads/delete', { id: t.id }))) as Error).message).toContain(`No thread ${t.id}`);
    const ask = await errorOf(engine.call('answer/ask', { query: 'who?', thread_id: t.id }));
    expect((ask as Error).message).toContain(`No thread ${t.id}`);
    const bad = await errorOf(engine.call('threads/get', { id: '../../etc/passwd' }));
    expect((bad as Error).message).toMatch(/not a thread id/);
    const empty = await errorOf(engine.call('threads/rename', { id: t.id, title: '   ' }));
    expect((empty as Error).message).toMatch(/title is empty/);
    const both = await errorOf(engine.call('answer/ask', { query: 'who?', thread_id: t.id, new_thread: true }));
    expect((both as Error).message).toMatch(/exclude each other/);
  });
});
