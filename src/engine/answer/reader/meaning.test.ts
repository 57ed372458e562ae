import { describe, expect, it } from 'vitest';
import { readAnswer, readerCandidates } from '../reader.ts';
import type { Snippet } from '../types.ts';
import { otherScript, scriptOf } from './meaning.ts';

const snippet = (n: number, text: string, title = `Note ${n}`): Snippet => ({ n, locator: `n${n}.md#L1-L5`, path: `n${n}.md`, start_line: 1, end_line: 5, doc_id: `d${n}`, title, heading: null, text, score: 0.5 });
const stats = (terms: readonly string[]) => new Map(terms.map((t) => [t, /[a-z]/.test(t) ? { idf: 2, df: 3 } : { idf: 0, df: 0 }]));

describe('scriptOf and otherScript', () => {
  it.each([
    ['Как восстановить удалённую заметку?', 'cyrillic'],
    ['How do I restore a deleted note?', 'latin'],
    ['如何恢复笔记', 'cjk'],
    ['1234 ?!', null],
  ] as const)('%s is written in %s', (text, script) => {
    expect(scriptOf(text)).toBe(script);
  });

  it('tells a Russian question over English notes apart, but not one that names an English word in Russian notes', () => {
    const english = [{ text: 'Deleted notes go to the trash folder.' }, { text: 'Open the file recovery core plugin.' }];
    const russian = [{ text: 'Удалённые заметки попадают в корзину.' }, { text: 'Откройте плагин Восстановление файлов в Obsidian.' }];
    expect(otherScript('Как восстановить удалённую заметку в Obsidian?', english)).toBe(true);
    expect(otherScript('How do I restore a deleted note?', russian)).toBe(true);
    expect(otherScript('Как открыть Obsidian?', russian)).toBe(false);
    expect(otherScript('How do I restore a deleted note?', english)).toBe(false);
  });

  it('counts neither inline code nor the records of a translation table as the notes\' prose', () => {
    const russian = [
      { text: 'Переменная: `{{time}}`; Описание: Текущее время. Формат по умолчанию: `HH:mm`.' },
      { text: 'Для `{{date}}` и `{{time}}` можно изменить `format` с помощью `YYYY-MM-DD HH:mm:ss`.' },
      { text: '[heading.plugins/Template variables] original=Template variables translation=Переменные шаблонов' },
      { text: 'original=Set your template folder translation=Установка папки шаблонов' },
    ];
    expect(otherScript('default format of the {{time}} variable in templates?', russian, 1)).toBe(true);
    // Counted whole, the code and the records' English outweigh the Russian prose.
    const letters = (re: RegExp) => russian.reduce((n, c) => n + (c.text.match(re)?.length ?? 0), 0);
    expect(letters(/\p{Script=Latin}/gu)).toBeGreaterThan(letters(/\p{Script=Cyrillic}/gu));
  });
});

describe('reading by meaning', () => {
  const notes = [
    snippet(1, 'Obsidian keeps a snapshot of every note you edit. To restore a deleted note, open File recovery and pick a snapshot.', 'File recovery'),
    snippet(2, 'Sync keeps the version history of your notes for a year. Themes change how notes look.', 'Sync'),
  ];
  // The cosine a multilingual embedder would give: closest for the sentence about restoring a note.
  const similarity = (text: string) => (/restore a deleted/.test(text) ? 0.86 : /snapshot of every/.test(text) ? 0.8 : /version history/.test(text) ? 0.78 : 0.7);

  it('quotes the closest sentence and one of another passage, as a partial answer, when the question is in another script', () => {
    const r = readAnswer('Как восстановить случайно удалённую заметку?', readerCandidates(notes), { termStats: stats, similarity });
    expect(r.byMeaning).toBe(true);
    expect(r.outcome).toBe('partial');
    expect(r.answer).toBe('To restore a deleted note, open File recovery and pick a snapshot. [1] Sync keeps the version history of your notes for a year. [2]');
    expect(r.cited).toEqual([1, 2]);
    expect(r.unknown).toEqual([]);
  });

  it('reads by words without sentence vectors, or when the question is in the notes\' script', () => {
    const noVectors = readAnswer('Как восстановить случайно удалённую заметку?', readerCandidates(notes), { termStats: stats });
    expect(noVectors.byMeaning).toBeUndefined();
    expect(noVectors.outcome).toBe('not_found');
    const same = readAnswer('How do I restore a deleted note?', readerCandidates(notes), { termStats: stats, similarity });
    expect(same.byMeaning).toBeUndefined();
    expect(same.answer).toMatch(/^To restore a deleted note/);
  });

  it('reads by meaning a question the words left unanswered when most of the prose is in another script, though it names the notes\' English words', () => {
    const russian = [
      snippet(1, 'Чтобы открыть Quick switcher в Obsidian Desktop, нажмите Ctrl+O в Windows или Cmd+O в macOS. Быстрый переключатель ищет по названиям.', 'Быстрый переключатель'),
      snippet(2, 'Command palette открывается сочетанием Ctrl+P. Недавние команды сверху.', 'Палитра команд'),
    ];
    const near = (text: string) => (/Ctrl\+O/.test(text) ? 0.88 : /Ctrl\+P/.test(text) ? 0.8 : 0.7);
    const question = 'At how many items does the Quick switcher switch to a simpler algorithm?';
    // Two Latin letters to three Cyrillic: more than product names alone, so not read by meaning first.
    expect(otherScript(question, readerCandidates(russian))).toBe(false);
    const r = readAnswer(question, readerCandidates(russian), { termStats: stats, similarity: near });
    expect(r.byMeaning).toBe(true);
    expect(r.outcome).toBe('partial');
    expect(r.answer).toBe('Чтобы открыть Quick switcher в Obsidian Desktop, нажмите Ctrl+O в Windows или Cmd+O в macOS. [1] Command palette открывается сочетанием Ctrl+P. [2]');
    // Without vectors the words decide: not in your notes.
    expect(readAnswer(question, readerCandidates(russian), { termStats: stats }).outcome).toBe('not_found');
    // Where the words answer, they are read.
    const byWords = readAnswer('Which hotkey brings up the Quick switcher on Windows?', readerCandidates(russian), { termStats: stats, similarity: near });
    expect(byWords.byMeaning).toBeUndefined();
    expect(byWords.answer).toMatch(/^Чтобы открыть Quick switcher/);
  });

  it('never quotes a record of a translation table, however close its English is to the question', () => {
    const russian = [
      snippet(1, 'Автодополнение переключается на упрощённый алгоритм, когда в хранилище 10 000 элементов. Быстрый переключатель ищет по названиям заметок.', 'Быстрый переключатель'),
      snippet(2, '[heading.plugins/Open Quick switcher]\noriginal=Open Quick switcher\ntranslation=Открытие быстрого перехода\n\n[heading.plugins/Quick switcher settings]\noriginal=Quick switcher settings\ntranslation=Настройки быстрого перехода', 'headings'),
      snippet(3, 'Палитра команд открывается сочетанием клавиш и показывает недавние команды сверху списка.', 'Палитра команд'),
    ];
    const near = (text: string) => (/original=/.test(text) ? 0.93 : /10 000/.test(text) ? 0.88 : /Палитра/.test(text) ? 0.8 : 0.7);
    const r = readAnswer('At how many items does the Quick switcher autocomplete switch to a simpler algorithm?', readerCandidates(russian), { termStats: stats, similarity: near });
    expect(r.byMeaning).toBe(true);
    expect(r.answer).not.toMatch(/original=/);
    expect(r.answer).toMatch(/^Автодополнение переключается на упрощённый алгоритм, когда в хранилище 10 000 элементов\. \[1\]/);
  });
});
