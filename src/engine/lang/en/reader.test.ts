import { describe, expect, it } from 'vitest';
import { askedType, asksLimit, boundStatement, holdsType, likelyVerbs, measureWords, saysWhere, statesBound } from '../../answer/answer-type.ts';
import { leansOnPrevious, STEPS_HEADING } from '../../answer/reader/candidates.ts';
import { askedNouns, describesSubject, directForm, namingForms, questionStems, taskVerb, withoutFraming } from '../../answer/reader/question.ts';
import { ANNOUNCES_LIST } from '../../answer/reader/render.ts';
import { statedPart } from '../../answer/reader/selection.ts';
import { matchForm } from '../../answer/reader/text.ts';
import { stemWord, tokenize } from '../../search/analyzer.ts';

const framing = (question: string) => tokenize(question, 'en').filter((t) => questionStems('en').has(t.term)).map((t) => t.raw.toLowerCase());
const form = (word: string) => matchForm(stemWord(word, 'en'));

describe('the English reader pack', () => {
  it.each([
    ['What is the retention period?', ['what']],
    ['Where else can I find it?', ['where', 'else', 'it']],
    ['How long does the pilot last?', ['how', 'long', 'does']],
  ])('%s is framed by %j', (question, words) => {
    expect(framing(question)).toEqual(words);
  });

  it.each([
    ['Remind me, who authored the first version of the help vault?', 'who authored the first version of the help vault?'],
    ['I forgot which issue we filed for the flaky tests', 'which issue we filed for the flaky tests'],
    ['can you remind me how long the relay was down', 'how long the relay was down'],
    // Only a phrase that opens the question frames it: the reminder is what this one asks about.
    ['Can Dendron send me a reminder when a task is due?', 'Can Dendron send me a reminder when a task is due?'],
    ['Remind me', 'Remind me'],
  ])('%s is read as %j', (question, read) => {
    expect(withoutFraming(question, 'en')).toBe(read);
  });

  it.each([
    ['How can I export a note to PDF?', { form: form('export'), required: true }],
    ['How to rotate the relay certificate?', { form: form('rotate'), required: true }],
    ['When does the pilot start?', undefined],
  ])('the task verb of %s', (question, verb) => {
    expect(taskVerb(question, 'en')).toEqual(verb);
  });

  it.each([
    ['It was re-established in 1991.', true],
    ['However, this is not the case.', true],
    ['At the time of his death, the empire was divided.', true],
    ['The relay restarted at noon.', false],
  ])('%s leans on the sentence before: %s', (text, leans) => {
    expect(leansOnPrevious(text)).toBe(leans);
  });

  it.each([
    ["Who is Lukas Becker's manager?", true],
    ['What is the library that Nadia maintains?', true],
    ['Who leads the sync team?', false],
  ])('%s describes its subject: %s', (question, describes) => {
    expect(describesSubject(question)).toBe(describes);
  });

  it('reads an irregular past as its verb, and leaves forms that are nouns', () => {
    expect([form('began'), form('led'), form('wrote')]).toEqual([form('begin'), form('lead'), form('write')]);
    expect(form('left')).toBe(stemWord('left', 'en'));
  });

  it('knows steps headings, list announcements, conditions, naming verbs, asked nouns and stranded prepositions', () => {
    expect(['Steps', 'Getting started', 'Installation'].map((h) => STEPS_HEADING.test(h))).toEqual([true, true, true]);
    expect(STEPS_HEADING.test('Background')).toBe(false);
    expect(['You can export it using the following methods.', 'Proceed as follows.'].map((s) => ANNOUNCES_LIST.test(s))).toEqual([true, true]);
    expect(statedPart('If your team is one person, the plan costs $8.')).not.toContain('one person');
    expect(namingForms('en').has(form('called'))).toBe(true);
    expect([...askedNouns('What device is used to sync?', 'en')]).toEqual([form('device')]);
    expect(directForm('Where does Tomás Herrera work from?', 'place')?.test('works remotely from Valencia')).toBe(true);
  });

  it.each([
    ['It lasted 47 minutes.', 'duration', true],
    ['The review is on March 3.', 'date', true],
    ['It happened in the nineteenth century.', 'date', true],
    ['Every Monday at noon.', 'date', true],
    ['The pilot has twelve couriers.', 'number', true],
    ['The pilot starts soon.', 'date', false],
    // The pack's `values`: how a sentence states a value.
    ['Backups run nightly.', 'duration', true],
    ['Reply within the first 5 days.', 'date', true],
    ['It is due tomorrow.', 'date', true],
    ['Sync is free of charge.', 'money', true],
    ['It costs 8 dollars.', 'money', true],
    ['We moved because the relay was too slow.', 'reason', true],
    ['Only the vault owner can invite people.', 'person', true],
    ['She works from Valencia.', 'place', true],
    ['Run `make relay-dev` to start it.', 'procedure', true],
    ['To change it, open the settings.', 'procedure', true],
    ['"sinc" stands for sine cardinal.', 'definition', true],
    ['We talked about the relay.', 'reason', false],
  ] as const)('%s holds a value of type %s: %s', (sentence, type, holds) => {
    expect(holdsType(sentence, { type })).toBe(holds);
  });

  it('reads its bounds, sizes, measures and places from the pack', () => {
    expect(holdsType('Plans cost $8 per month.', { type: 'money', rate: true })).toBe(true);
    expect(askedType('What is the maximum size of an attachment?')).toEqual({ type: 'number', size: true });
    expect(['up to 5 MB', 'at least 25 licenses', 'Android 5.1 and above'].map(statesBound)).toEqual([true, true, true]);
    expect(asksLimit('What is the largest file I can upload?')).toBe(true);
    expect(boundStatement('hold', 'How much media can one site hold?')?.test('a limit of 4 GB per site')).toBe(true);
    expect(boundStatement('percent')?.test('40 %')).toBe(true);
    expect(measureWords('How big a discount can a student get?')).toEqual(['big']);
    expect(saysWhere('It is under the status bar.')).toBe(true);
    expect(holdsType('None of the devices', { type: 'number', unit: 'devic' })).toBe(true);
    expect(askedType('When I create a daily note, which template does it use?').type).toBe('entity');
  });

  it.each([
    ['What was the duration of the relay outage?', { type: 'duration' }],
    ['Of what duration was the outage?', { type: 'duration' }],
    ['how far back does version history go on sync plus', { type: 'duration' }],
    ['How far in advance must I renew the certificate?', { type: 'duration' }],
    ['What is the session timeout, in minutes?', { type: 'number' }],
    ['What is the maximum value of Max-Age in seconds?', { type: 'number' }],
    ["What's the largest PDF, in megabytes, that I can annotate?", { type: 'number', size: true }],
    ['cache threshold in ms for memoization', { type: 'number' }],
    // The unit names a thing, not the value's unit: "days view".
    ['Which plugin runs in days view?', { type: 'entity' }],
  ] as const)('%s asks for %j', (question, type) => {
    expect(askedType(question)).toEqual(type);
  });

  it('tells the verbs of a question by its words', () => {
    expect([...likelyVerbs('When did the team postpone the launch?')]).toEqual(['postpone']);
  });
});
