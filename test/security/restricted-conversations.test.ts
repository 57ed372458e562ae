import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import { TempDirs } from '../helpers/tmp.ts';

/**
 * Saved conversations keep what a note said and what it was called. A turn that used a note marked
 * restricted later, or asked with the allowance and read without it, must not show the note through
 * any of its parts: the answer, what the follow-up was searched as (it carries the titles of the notes
 * the previous answer cited), the carried terms, the export, or the answer's trace.
 */
const TITLE = 'Relay transport decision';
const RELAY = `---\ntitle: ${TITLE}\n---\n# Relay\nWe postponed QUIC for the relay server because of firewall issues.\n`;
const RESTRICTED_RELAY = `---\ntitle: ${TITLE}\nsensitivity: restricted\n---\n# Relay\nWe postponed QUIC for the relay server because of firewall issues.\n`;
const OTHER = {
  'people/Maya.md': '# Maya Chen\n\nMaya decided the storage layout and chairs the architecture review.\n',
  'budget.md': '# Budget 2026\n\nThe travel budget was approved by Oleg Petrov in May.\n',
};

const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  temp.cleanup();
});

function open(dataDir: string) {
  const engine = createEngine({ dataDir, env: {}, config: { graphLlm: false } });
  engines.push(engine);
  return engine;
}

/** Everything a caller without the allowance can read about the thread. */
async function everythingShown(engine: Engine, id: string) {
  const thread = await engine.call('threads/get', { id });
  const exported = await engine.call('threads/export', { id });
  const turns = await Promise.all(thread.turns_list.map((t) => engine.call('threads/export', { id, turn: t.ordinal })));
  return { thread, text: JSON.stringify([thread, exported, turns, engine.traces(100)]) };
}

describe('a restricted note stays out of saved conversations', () => {
  it('hides what a follow-up was searched as, what it carried and its trace once the cited note is restricted', async () => {
    const vault = temp.make('syn-conv-vault-', { 'relay.md': RELAY, ...OTHER });
    const engine = open(temp.make('syn-conv-data-'));
    await engine.index([vault]);
    const first = await engine.call('answer/ask', { query: 'Why did we postpone QUIC?', new_thread: true });
    expect(first.citations.map((c) => c.path)).toContain('relay.md');
    const id = first.thread!.id;
    const follow = await engine.call('answer/ask', { query: 'and who decided it?', thread_id: id });
    // The follow-up carried the cited note's title: the leak this test guards against is real.
    expect(follow.thread!.searched_as).toContain(TITLE);
    expect((await everythingShown(engine, id)).text).toContain(TITLE);

    fs.writeFileSync(path.join(vault, 'relay.md'), RESTRICTED_RELAY);
    await engine.index([vault]);
    const { thread, text } = await everythingShown(engine, id);
    expect(thread.turns_list.map((t) => t.hidden)).toEqual([true, true]);
    expect(thread.turns_list.map((t) => [t.searched_as, t.carried])).toEqual([
      [null, []],
      [null, []],
    ]);
    expect(text).not.toContain(TITLE);
    expect(text).not.toContain('firewall');

    // Allowed, everything is there again.
    const allowed = await engine.call('threads/get', { id, allow_sensitivity: ['restricted'] });
    expect(allowed.turns_list[1]!.searched_as).toContain(TITLE);
    expect((await engine.call('threads/export', { id, allow_sensitivity: ['restricted'] })).markdown).toContain(TITLE);
  });

  it('hides them for turns asked with the allowance and read without it, and for the turns that follow', async () => {
    const vault = temp.make('syn-conv-vault-', { 'relay.md': RESTRICTED_RELAY, ...OTHER });
    const engine = open(temp.make('syn-conv-data-'));
    await engine.index([vault]);
    const allow = { allow_sensitivity: ['restricted'] };
    const first = await engine.call('answer/ask', { query: 'Why did we postpone QUIC?', new_thread: true, context: allow });
    expect(first.citations.map((c) => c.path)).toContain('relay.md');
    const id = first.thread!.id;
    const follow = await engine.call('answer/ask', { query: 'and who decided it?', thread_id: id, context: allow });
    expect(follow.thread!.searched_as).toContain(TITLE);
    // A third turn, asked without the allowance, about a public note: its answer is shown, but it
    // must not carry the hidden turn's rewrite, and its searched_as and trace must not name the note.
    const third = await engine.call('answer/ask', { query: 'and what about it then?', thread_id: id });
    expect(JSON.stringify(third)).not.toContain(TITLE);
    const fourth = await engine.call('answer/ask', { query: 'Who approved the travel budget?', thread_id: id, context: allow });
    expect(fourth.answer).toContain('Oleg');

    const { thread, text } = await everythingShown(engine, id);
    expect(thread.turns_list.map((t) => t.hidden)).toEqual([true, true, true, false]);
    expect(thread.turns_list[3]!.answer!.answer).toContain('Oleg');
    expect(text).not.toContain(TITLE);
    expect(text).not.toContain('firewall');
    // The traces keep the words the user typed.
    expect(engine.traces(100).map((t) => t.query)).toEqual(expect.arrayContaining(['and who decided it?', 'Why did we postpone QUIC?']));
  });

  it('keeps an answer hidden when its note is moved and marked restricted, and when a cited note disappears', async () => {
    const vault = temp.make('syn-conv-vault-', { 'relay.md': RELAY, ...OTHER });
    const engine = open(temp.make('syn-conv-data-'));
    await engine.index([vault]);
    const asked = await engine.call('answer/ask', { query: 'Why did we postpone QUIC?', new_thread: true });
    expect(asked.answer).toContain('firewall');
    const id = asked.thread!.id;
    const budget = await engine.call('answer/ask', { query: 'Who approved the travel budget?', thread_id: id });
    expect(budget.answer).toContain('Oleg');

    // Moved (the old path is gone) and marked restricted in the same edit.
    fs.mkdirSync(path.join(vault, 'private'));
    fs.rmSync(path.join(vault, 'relay.md'));
    fs.writeFileSync(path.join(vault, 'private', 'transport.md'), RESTRICTED_RELAY);
    await engine.index([vault]);
    const moved = await everythingShown(engine, id);
    expect(moved.thread.turns_list.map((t) => t.hidden)).toEqual([true, false]);
    expect(moved.text).not.toContain('firewall');
    expect(moved.text).not.toContain(TITLE);
    const allowed = await engine.call('threads/get', { id, allow_sensitivity: ['restricted'] });
    expect(allowed.turns_list[0]!.answer!.answer).toContain('firewall');

    // Moved again and public: found by its passages' content, the answer is shown again.
    fs.writeFileSync(path.join(vault, 'private', 'transport.md'), RELAY);
    await engine.index([vault]);
    expect((await engine.call('threads/get', { id })).turns_list.map((t) => t.hidden)).toEqual([false, false]);

    // Deleted: nothing says what it would be marked now, so the answer that quoted it is held back.
    fs.rmSync(path.join(vault, 'private', 'transport.md'));
    await engine.index([vault]);
    const gone = await everythingShown(engine, id);
    expect(gone.thread.turns_list.map((t) => t.hidden)).toEqual([true, false]);
    expect(gone.text).not.toContain('firewall');
  });
});
