import { describe, expect, it } from 'vitest';
import { upgradeLine } from './command.ts';

describe('upgradeLine', () => {
  it('says how far the word index upgrade has come at most every 2 s, and always when it is done', () => {
    const lines: string[] = [];
    let t = 0;
    const report = upgradeLine({ out: () => undefined, err: (text) => lines.push(text) }, () => t);
    report({ done: 500, total: 50000 });
    t = 1000;
    report({ done: 1000, total: 50000 });
    t = 2500;
    report({ done: 1500, total: 50000 });
    t = 2600;
    report({ done: 50000, total: 50000 });
    expect(lines).toEqual([
      'upgrading the word index to this version of Synapsis: 500 of 50,000 notes re-read…\n',
      'upgrading the word index to this version of Synapsis: 1,500 of 50,000 notes re-read…\n',
      'upgrading the word index to this version of Synapsis: 50,000 of 50,000 notes re-read, done\n',
    ]);
  });
});
