import { describe, expect, it } from 'vitest';
import { readAnswer, readerCandidates } from '../reader.ts';
import type { Snippet } from '../types.ts';
import { readingFeatures } from './features.ts';
import { idfShare, missingRarity, retrievalSignals, type RarityWord } from './retrieval-signals.ts';

const words: RarityWord[] = [
  { term: 'publish', idf: 1 },
  { term: 'site', idf: 1 },
  { term: 'collaborator', idf: 2 },
];
const p = (...terms: string[]) => new Set(terms);

describe('idfShare', () => {
  it.each([
    ['every word', ['publish', 'site', 'collaborator'], 1],
    ['the rare word only', ['collaborator'], 0.5],
    ['the two common words', ['publish', 'site'], 0.5],
    ['one common word', ['site'], 0.25],
    ['no word', [], 0],
  ] as const)('a passage holding %s holds that share of the idf', (_, held, share) => {
    expect(idfShare(words, (t) => (held as readonly string[]).includes(t))).toBe(share);
  });

  it('is 0 when the question has no word of weight', () => {
    expect(idfShare([], () => true)).toBe(0);
    expect(idfShare([{ term: 'a', idf: 0 }], () => true)).toBe(0);
  });
});

describe('missingRarity', () => {
  it.each([
    ['every word is held', [p('publish', 'site'), p('collaborator')], 0],
    ['the rarest word is in no passage', [p('publish', 'site')], 1],
    ['only a common word is in no passage', [p('publish', 'collaborator')], 0.5],
    ['no passage was retrieved', [], 1],
  ] as const)('is the missing word idf over the highest when %s', (_, passages, value) => {
    expect(missingRarity(words, passages)).toBe(value);
  });
});

describe('retrievalSignals', () => {
  it('reads the first passage, the first three, the gap to the fifth, the notes and the lead note', () => {
    const passages = [p('publish', 'site', 'collaborator'), p('publish'), p('site'), p('publish', 'site'), p('publish')];
    const s = retrievalSignals(passages, ['a', 'a', 'b', 'c', 'c'], words, 'a');
    expect(s).toEqual({ topShare: 1, top3Share: 1, rankGap: 0.75, missingRare: 0, topNotes: 0.6, leadFirstNote: 1 });
  });

  it('says the asked word is in no passage and the first passage holds only the topic', () => {
    const s = retrievalSignals([p('publish', 'site'), p('site'), p('publish')], ['a', 'b', 'c'], words, 'b');
    expect(s.topShare).toBe(0.5);
    expect(s.top3Share).toBe(0.5);
    // Fewer than five passages: the fifth holds nothing.
    expect(s.rankGap).toBe(0.5);
    expect(s.missingRare).toBe(1);
    expect(s.topNotes).toBe(0.6);
    expect(s.leadFirstNote).toBe(0);
  });

  it('is all zeros, with every word missing, when nothing was retrieved', () => {
    expect(retrievalSignals([], [], words, undefined)).toEqual({ topShare: 0, top3Share: 0, rankGap: 0, missingRare: 1, topNotes: 0, leadFirstNote: 0 });
  });
});

const snippet = (n: number, text: string, title: string, doc = `d${n}`): Snippet => ({ n, locator: `n${n}.md#L1-L5`, path: `${doc}.md`, start_line: 1, end_line: 5, doc_id: doc, title, heading: null, text, score: 0.5 });
const termStats = (terms: readonly string[]) => new Map(terms.map((t) => [t, { idf: t.startsWith('collaborat') ? 3 : 1, df: 3 }]));

describe('a reading measures retrieval', () => {
  it('gives the features of a question whose asked word no passage holds', () => {
    const notes = [snippet(1, 'Publish sites can have a custom domain.', 'Publish'), snippet(2, 'A Publish site costs 8 dollars a month.', 'Publish pricing')];
    const r = readAnswer('How many collaborators can a Publish site have?', readerCandidates(notes), { termStats });
    const f = readingFeatures(r);
    expect(f.missing_rare).toBe(1);
    expect(f.top_share).toBeLessThan(1);
    expect(f.top_notes).toBe(0.4);
  });

  it('finds no sentence with a value of the asked type in passages that state none', () => {
    const notes = [snippet(1, 'Publish sites can have a custom domain. Themes change how a site looks.', 'Publish'), snippet(2, 'A Publish site can be shared with your team.', 'Publish sharing')];
    const f = readingFeatures(readAnswer('How many collaborators can a Publish site have?', readerCandidates(notes), { termStats }));
    expect(f.typed_share).toBe(0);
    expect(f.typed_cover).toBe(0);
  });

  it('gives the features of a question its first passage answers', () => {
    const notes = [snippet(1, 'A Publish site can have up to 10 collaborators.', 'Publish collaborators'), snippet(2, 'Publish sites can have a custom domain.', 'Publish')];
    const r = readAnswer('How many collaborators can a Publish site have?', readerCandidates(notes), { termStats });
    const f = readingFeatures(r);
    expect(f.missing_rare).toBe(0);
    expect(f.top_share).toBe(1);
    expect(f.lead_first_note).toBe(1);
    expect(f.typed_cover).toBe(1);
    // Of the two sentences, the one with "10" holds a number.
    expect(f.typed_share).toBe(0.5);
  });
});
