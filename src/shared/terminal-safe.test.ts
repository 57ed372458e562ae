import { describe, expect, it } from 'vitest';
import { fromTerminalLine, terminalJson, terminalLine, terminalText } from './terminal-safe.ts';

/** Characters a terminal obeys rather than prints: none of them may reach it raw. */
const OBEYED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

describe('terminalText', () => {
  it('shows escape sequences, C1 controls and bidi overrides instead of passing them to the terminal', () => {
    expect(terminalText('a\x1b]0;pwned\x07b')).toBe('a\u241b]0;pwned\u2407b');
    expect(terminalText('\x1b[2J\x1b[31mred')).toBe('\u241b[2J\u241b[31mred');
    expect(terminalText('over\rwrite\bx\x7f')).toBe('over\u240dwrite\u2408x\u2421');
    expect(terminalText('c1 \x9b2J \x85 end')).toBe('c1 <U+009B>2J <U+0085> end');
    expect(terminalText('photo\u202egpj.exe \u2066iso\u2069')).toBe('photo<U+202E>gpj.exe <U+2066>iso<U+2069>');
  });

  it('keeps tabs, newlines and ordinary Unicode as they are', () => {
    const plain = 'col1\tcol2\nשלום 👩‍👩‍👧 ё «quoted» — done';
    expect(terminalText(plain)).toBe(plain);
  });
});

describe('terminalLine', () => {
  it('also shows a newline, so a name cannot start a new output line', () => {
    expect(terminalLine('new\nline.md')).toBe('new\u240aline.md');
    expect(terminalLine('tab\tkept')).toBe('tab\tkept');
    expect(terminalLine('a\u2028b')).toBe('a<U+2028>b');
  });

  it('is read back by fromTerminalLine, for every character it shows', () => {
    const all = Array.from({ length: 0x30 }, (_, i) => String.fromCharCode(i)).join('') + '\x7f\x80\x9b\x9f\u061c\u200e\u200f\u202a\u202e\u2066\u2069\u2028\u2029';
    const shown = terminalLine(all);
    expect(shown).not.toMatch(OBEYED);
    expect(shown).not.toContain('\n');
    expect(fromTerminalLine(shown)).toBe(all);
    expect(fromTerminalLine('<U+0041> stays, <U+202E> goes')).toBe('<U+0041> stays, \u202e goes');
  });
});

describe('terminalJson', () => {
  it('escapes what JSON.stringify leaves raw, and parses to the same value', () => {
    const value = { path: 'bidi\u202egpj.md', text: 'c1 \x9b2J del \x7f esc \x1b', sep: 'a\u2028b', plain: 'ü ✓' };
    const json = terminalJson(JSON.stringify(value, null, 2));
    expect(json).not.toMatch(OBEYED);
    expect(json).toContain('\\u202e');
    expect(json).toContain('ü ✓');
    expect(JSON.parse(json)).toEqual(value);
  });
});
