import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { highlightSnippet } from './snippet.ts';

describe('highlightSnippet', () => {
  it('marks words whose stem matches, in their written form', () => {
    expect(highlightSnippet('We indexed the notes while indexing.', ['index'])).toBe('We «indexed» the notes while «indexing».');
    expect(highlightSnippet('Настройка синхронизации', ['настро'])).toBe('«Настройка» синхронизации');
  });

  it('centres on the densest region of a long text', () => {
    const text = `${'filler words here. '.repeat(40)}the relay outage lasted 47 minutes${' more filler.'.repeat(40)}`;
    const s = highlightSnippet(text, ['relay', 'outag'], 80);
    expect(s).toMatch(/^….*«relay» «outage».*…$/);
    expect(s.length).toBeLessThanOrEqual(80 + 2 + 4);
  });

  it('supports prefix terms and never throws', () => {
    expect(highlightSnippet('synapsis synapse', ['synap*'])).toBe('«synapsis» «synapse»');
    fc.assert(fc.property(fc.string(), fc.array(fc.string()), (t, q) => void highlightSnippet(t, q)));
  });
});
