import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe('search/query with a tag and no words', () => {
  it('lists the notes tagged so, one passage each, in path order, never a hidden one', async () => {
    const vault = temp.make('syn-tag-only-', {
      'b.md': '---\ntags: [plan]\n---\n# B\n\nFirst.\n\n## Later\n\nSecond.\n',
      'a.md': '# A\n\nFiled under #plan.\n',
      'c.md': '# C\n\nNo tag here.\n',
      'hr/d.md': '---\nsensitivity: restricted\ntags: [plan]\n---\n# D\n\nSecret plan.\n',
    });
    const engine = createEngine({ dataDir: temp.make(), env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } });
    try {
      await engine.index([vault]);
      const r = await engine.call('search/query', { query: '', context: { tags: ['plan'] } });
      expect(r.meta.mode).toBe('tags');
      expect(r.chunks.map((c) => c.path)).toEqual(['a.md', 'b.md']);
      const allowed = await engine.call('search/query', { query: ' ', context: { tags: ['plan'], allow_sensitivity: ['restricted'] } });
      expect(allowed.chunks.map((c) => c.path)).toEqual(['a.md', 'b.md', 'hr/d.md']);
      // No words and no tag: nothing.
      expect((await engine.call('search/query', { query: '' })).chunks).toEqual([]);
    } finally {
      await engine.dispose();
    }
  });
});
