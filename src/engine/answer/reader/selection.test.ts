import { describe, expect, it } from 'vitest';
import { isMarkupFragment } from './selection.ts';

describe('isMarkupFragment', () => {
  it.each([
    ['status: done', true],
    ['| Plan | Price |', true],
    ['Standard | $4 | monthly', true],
    ['[heading.sync/Encryption] original=Encryption translation=Шифрование', true],
    ['original=Set your template folder translation=Установка папки шаблонов', true],
    ['DATABASE_URL=postgres://localhost/app', true],
    ['Decider: Tomás Herrera', true],
    ['Sync keeps the version history of your notes for a year.', false],
    ['Set x = 5 before the loop, then call run().', false],
    ['The default is retries=3 in the config file.', false],
    ['a==b holds for equal strings', false],
  ])('%s → %s', (text, markup) => {
    expect(isMarkupFragment(text)).toBe(markup);
  });
});
