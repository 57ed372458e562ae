import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import type { AnswerEnvelope } from '../../shared/contract.ts';
import { exportFileName, threadMarkdown, turnMarkdown } from './thread-markdown.ts';

const envelope = (over: Partial<AnswerEnvelope>): AnswerEnvelope =>
  ({
    answer: 'SQLite was chosen [1]; Maya approved it [2].',
    answer_mode: 'extractive',
    snippets: [
      { n: 1, locator: 'decisions/Storage.md#L1-L3', path: 'decisions/Storage.md', start_line: 1, end_line: 3, doc_id: 'd1', title: 'ADR-011 Storage', heading: null, text: '', score: 1 },
      { n: 2, locator: 'people/Maya.md#L4-L4', path: 'people/Maya.md', start_line: 4, end_line: 4, doc_id: 'd2', title: 'people/Maya.md', heading: null, text: '', score: 1 },
    ],
    citations: [
      { n: 2, locator: 'people/Maya.md#L4-L4', path: 'people/Maya.md', start_line: 4, end_line: 4, doc_id: 'd2', stale: true },
      { n: 1, locator: 'decisions/Storage.md#L1-L3', path: 'decisions/Storage.md', start_line: 1, end_line: 3, doc_id: 'd1', stale: false },
    ],
    searched: { query: 'q', terms: [], results: 2, top: [], closest: [] },
    verdict: 'APPROVE',
    outcome: 'answered',
    confidence: 0.82,
    cancelled: false,
    ...over,
  }) as AnswerEnvelope;

describe('thread markdown', () => {
  it('writes a turn with its question, what it was searched as, the answer and each citation with its lines', () => {
    const md = turnMarkdown({ question: 'and who\napproved it?', searched_as: 'and who approved it ADR-011', answer: envelope({}), hidden: false, restricted: false });
    expect(md.split('\n')).toEqual([
      '## and who approved it?',
      '',
      '_Searched as: and who approved it ADR-011_',
      '',
      '_Answered · 82% confidence_',
      '',
      'SQLite was chosen [1]; Maya approved it [2].',
      '',
      '**Sources**',
      '',
      '- [1] ADR-011 Storage — `decisions/Storage.md:1–3`',
      '- [2] `people/Maya.md:4` (changed since indexing)',
    ]);
  });

  it('numbers the sources as the app shows them and says the outcome', () => {
    const md = turnMarkdown({ question: 'q', searched_as: null, answer: envelope({ answer: 'Maya approved it [2]; SQLite was chosen [1, 2].', outcome: 'partial', verdict: 'REVISE', confidence: 0.4 }), hidden: false, restricted: false });
    expect(md).toContain('_Partly answered · 40% confidence_');
    expect(md).toContain('Maya approved it [1]; SQLite was chosen [2, 1].');
    expect(md).toContain('- [1] `people/Maya.md:4` (changed since indexing)\n- [2] ADR-011 Storage — `decisions/Storage.md:1–3`');
    const refused = turnMarkdown({ question: 'q', searched_as: null, answer: envelope({ answer: 'Not found.', answer_mode: 'abstained', outcome: 'not_found', verdict: 'REJECT', citations: [] }), hidden: false, restricted: false });
    expect(refused).toContain('_Not in your notes_');
  });

  it('lists an unsure quote\'s closest sentences under it, as the app does', () => {
    const answer = envelope({ answer: 'SQLite was chosen [1].\nMaya approved it [2].', outcome: 'partial', verdict: 'REVISE', confidence: 0.5, reader: { probability: 0.5, outcome: 'answered', quote: 'SQLite was chosen [1].', features: {} } as AnswerEnvelope['reader'] });
    const md = turnMarkdown({ question: 'q', searched_as: null, answer, hidden: false, restricted: false });
    expect(md).toContain('SQLite was chosen [1].\n\nOther sentences of your notes close to the question:\n\n- Maya approved it [2].\n\n**Sources**');
  });

  it('keeps the steps of a how-to answer on lines of their own', () => {
    const md = turnMarkdown({ question: 'How do I run it?', searched_as: 'run', answer: envelope({ answer: 'Start the relay: [1]\nmake relay-dev [1]', citations: [] }), hidden: false, restricted: false });
    expect(md).toContain('Start the relay: [1]  \nmake relay-dev [1]');
  });

  it('holds back a hidden answer, marks a restricted one, and quotes an abstention’s closest passages as not an answer', () => {
    const hidden = turnMarkdown({ question: 'q', searched_as: null, answer: null, hidden: true, restricted: true });
    expect(hidden).toContain('not shown');
    expect(turnMarkdown({ question: 'q', searched_as: null, answer: envelope({}), hidden: false, restricted: true })).toContain('_Uses restricted notes._');
    const abstained = turnMarkdown({
      question: 'q',
      searched_as: null,
      answer: envelope({ answer: 'Not found in your notes.', answer_mode: 'abstained', citations: [], searched: { query: 'q', terms: [], results: 1, top: [], closest: [{ text: 'a\nline', locator: 'a.md#L1-L1' }] } }),
      hidden: false,
      restricted: false,
    });
    expect(abstained).toContain('Closest passages (not an answer):\n\n> a line\n> — `a.md#L1-L1`');
    expect(abstained).not.toContain('**Sources**');
  });

  it('writes an interrupted turn with the quote read before it stopped', () => {
    const md = turnMarkdown({ question: 'q', searched_as: null, answer: null, hidden: false, restricted: false, interrupted: { quote: 'SQLite was chosen.', sources: [{ locator: 'decisions/Storage.md#L2-L2', title: 'ADR-011' }] } });
    expect(md).toContain('_Interrupted: the answer was not finished._');
    expect(md).toContain('> SQLite was chosen.\n> — `decisions/Storage.md#L2-L2`');
    expect(md).not.toContain('restricted');
  });

  it('writes the thread under its title and names the file after it', () => {
    const md = threadMarkdown('ADR-011: storage?', [{ question: 'one', searched_as: null, answer: envelope({}), hidden: false, restricted: false }], '2026-11-25T10:00:00Z');
    expect(md.startsWith('# ADR-011: storage?\n\n_Exported from Synapsis on 2026-11-25: 1 question._\n\n## one\n')).toBe(true);
    expect(exportFileName('ADR-011: storage?')).toBe('ADR-011-storage.md');
    expect(exportFileName('Кто утвердил ADR/../011')).toBe('Кто-утвердил-ADR-011.md');
    expect(exportFileName('???')).toBe('thread.md');
  });

  it('quotes HTML and markdown images from notes as text, and a backtick in a file name keeps its code span', () => {
    // A viewer that renders raw HTML (markdown-it with html on, like many editors' previews) shows the export.
    const render = (md: string) => new MarkdownIt({ html: true }).render(md);
    const tag = '<img src="http://tracker.example/p.gif">';
    const name = 'notes/a`b``c.md';
    const answer = envelope({
      answer: `The logo is ${tag} and ![x](http://tracker.example/q.gif) [1].`,
      snippets: [{ n: 1, locator: `${name}#L1-L1`, path: name, start_line: 1, end_line: 1, doc_id: 'd1', title: `<script>alert(1)</script> Logo`, heading: null, text: '', score: 1 }],
      citations: [{ n: 1, locator: `${name}#L1-L1`, path: name, start_line: 1, end_line: 1, doc_id: 'd1', stale: false }],
    });
    const md = threadMarkdown(`<b>title</b>`, [{ question: `why <iframe src="http://x.example">?`, searched_as: `why <svg onload=alert(1)>`, answer, hidden: false, restricted: false }], '2026-11-25T10:00:00Z');
    const html = render(md);
    expect(html).not.toMatch(/<(img|script|iframe|svg|b)\b/i);
    expect(html).toContain('&lt;img src=&quot;http://tracker.example/p.gif&quot;&gt;');
    expect(html).toContain('<code>notes/a`b``c.md:1</code>');
    const abstained = envelope({ answer: 'Not found in your notes.', answer_mode: 'abstained', citations: [], searched: { query: 'q', terms: [], results: 1, top: [], closest: [{ text: tag, locator: `\`${name}#L1-L1` }] } });
    const closest = render(turnMarkdown({ question: 'q', searched_as: null, answer: abstained, hidden: false, restricted: false }));
    expect(closest).not.toMatch(/<img\b/);
    expect(closest).toContain('<code>`notes/a`b``c.md#L1-L1</code>');
  });
});
