import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../search/analyzer.ts';
import { checkAnswer } from './checks.ts';
import { askedNouns, codeSentences, DEFAULT_SELECTION, derivedWords, leansOnPrevious, matchForm, misspelling, plainText, proseSentences, proseUnits, readAnswer, readerCandidates, SELECTION_FEATURES, sentenceSimilarity, togetherNeeded } from './reader.ts';
import { startsInFence, withoutComments } from './reader/units.ts';
import type { Snippet } from './types.ts';

const snippet = (n: number, text: string, extra: Partial<Snippet> = {}): Snippet => ({
  n,
  locator: `notes/s${n}.md#L1-L9`,
  path: `notes/s${n}.md`,
  start_line: 1,
  end_line: 9,
  doc_id: `doc-${n}`,
  title: `S${n}`,
  heading: null,
  text,
  score: 0.5,
  ...extra,
});

/** Every word equally rare, except the ones named (df 0: no file holds them). */
const stats = (unknown: string[] = []) => (terms: readonly string[]) => new Map(terms.map((t) => [t, unknown.includes(t) ? { idf: 0, df: 0 } : { idf: 2, df: 3 }]));
const read = (q: string, snippets: Snippet[], unknown: string[] = []) => readAnswer(q, readerCandidates(snippets), { termStats: stats(unknown) });

describe('readAnswer', () => {
  it('leads with the sentence that states the asked fact, not the one that repeats the question', () => {
    const s = [
      snippet(1, 'The relay outage was discussed at length by the whole team. The outage lasted 47 minutes.', { title: 'Relay outage review' }),
      snippet(2, 'Another relay outage was feared in April.'),
    ];
    const r = read('How long did the relay outage last?', s);
    expect(r.outcome).toBe('answered');
    expect(r.answer).toBe('The outage lasted 47 minutes. [1]');
    expect(checkAnswer(r.answer, s).verdict).toBe('APPROVE');
  });

  it('reads a question that only names a process as asking its steps, the process word aside', () => {
    const s = [
      snippet(1, 'Process for releasing the relay server from the monorepo.', { title: 'Cut a release' }),
      snippet(2, '## Steps\n\n1. Make sure `main` is green.\n2. Update `CHANGELOG.md` for each component you release.\n3. Tag the release and push the tag.', { title: 'Cut a release', heading: 'Steps' }),
    ];
    const r = read('release process?', s);
    expect(r.outcome).toBe('answered');
    expect(r.answer).toMatch(/^Make sure `main` is green\./);
    expect(r.answer).not.toContain('Process for releasing');
  });

  it('answers "where" only by a quote that says where: a role line is at most partial', () => {
    const role = [snippet(1, 'Anna Sokolova — role: head of the platform team.', { title: 'Anna Sokolova' })];
    expect(read('Where does the head of the platform team sit?', role).outcome).not.toBe('answered');
    const place = [snippet(1, 'Anna Sokolova — role: head of the platform team. The platform team sits in the Berlin office.', { title: 'Anna Sokolova' })];
    const r = read('Where does the head of the platform team sit?', place);
    expect(r.outcome).toBe('answered');
    expect(r.answer).toContain('Berlin office');
  });

  it('quotes the neighbour a lead refers to, after the lead, and no unrelated neighbour', () => {
    const s = [
      snippet(1, 'Hyperbaric medicine uses special oxygen chambers to raise the pressure. These devices treat carbon monoxide poisoning and decompression sickness. The hospital opened in 1990.'),
    ];
    const back = read('Which devices treat carbon monoxide poisoning?', s);
    expect(back.answer).toBe('These devices treat carbon monoxide poisoning and decompression sickness. [1] Hyperbaric medicine uses special oxygen chambers to raise the pressure. [1]');
    const notes = (after: string) => [snippet(1, `The stock exchange of Warsaw traded until the war closed it. ${after} Trading volumes grew.`)];
    const when = 'When did the stock exchange of Warsaw reopen after the war?';
    // The sentence with the date leads, with the one that says what "it" is.
    expect(read(when, notes('It was re-established in April 1991.')).answer).toBe('It was re-established in April 1991. [1] The stock exchange of Warsaw traded until the war closed it. [1]');
    // A sentence after the lead that brings nothing the question asks is filler, even when it opens with a pronoun.
    expect(read(when, notes('It had a fine building.')).answer).toBe('The stock exchange of Warsaw traded until the war closed it. [1]');
  });

  it('does not take English function words the index keeps ("its", "somewhere else") for asked content', () => {
    const s = [snippet(1, 'Snapshots are kept in the global settings folder, outside of the vault. Restoring a snapshot takes one click.', { title: 'File recovery' })];
    const r = read('Where does File recovery put its snapshots: in my vault folder or somewhere else?', s);
    expect(r.outcome).toBe('answered');
    expect(r.answer).toBe('Snapshots are kept in the global settings folder, outside of the vault. [1]');
    expect(r.missing).not.toEqual(expect.arrayContaining(['else']));
    expect(r.missing).not.toEqual(expect.arrayContaining(['its']));
    // Nor the modal "will", nor "big" in "how big", which names the measure asked: a quote without them holds the whole question.
    const size = [snippet(1, 'The Plus plan syncs files up to 200 MB.', { title: 'Plans' })];
    const big = read('How big a file will the Plus plan sync?', size);
    expect(big.answer).toBe('The Plus plan syncs files up to 200 MB. [1]');
    expect(big.missing).toEqual([]);
  });

  it('quotes the sentence before a lead that leans on it ("All of this", "Most of these"), and an example after a general claim', () => {
    const before = [snippet(1, 'The network added file transfer and gateways to the Telenet data network in the late 1970s. All of this set the stage for the role of Merit in the NSFNET project. The office moved in 1990.')];
    expect(read('What set the stage for the role of Merit in NSFNET?', before).answer).toBe(
      'All of this set the stage for the role of Merit in the NSFNET project. [1] The network added file transfer and gateways to the Telenet data network in the late 1970s. [1]',
    );
    const after = (next: string) => [snippet(1, `Many known complexity classes are suspected to be unequal, but this has not been proved. ${next} The field is young.`)];
    const q = 'Which expression illustrates the suspected inequality of complexity classes?';
    expect(read(q, after('For instance the classes P ⊆ NP ⊆ PSPACE may all be equal.')).answer).toBe(
      'Many known complexity classes are suspected to be unequal, but this has not been proved. [1] For instance the classes P ⊆ NP ⊆ PSPACE may all be equal. [1]',
    );
    // An example that says nothing the question asks is not quoted.
    expect(read(q, after('For instance the proofs are long.')).answer).toBe('Many known complexity classes are suspected to be unequal, but this has not been proved. [1]');
  });

  it('meets a question\'s verb in its irregular past form ("When did … begin?" / "began")', () => {
    const s = [snippet(1, 'The Seven Years War is named for its length in Europe. The war began in 1756 and ended with the peace of 1763. Fighting in America started earlier.', { title: 'Seven Years War' })];
    const r = read('When did the Seven Years War begin in Europe?', s);
    expect(r.outcome).toBe('answered');
    expect(r.answer.startsWith('The war began in 1756 and ended with the peace of 1763. [1]')).toBe(true);
    expect(r.missing).not.toContain('begin');
  });

  it('reads a relation stated by a label as the verb a question asks it with', () => {
    const s = [
      snippet(1, 'Decider: Maya Chen\nThe team compared SQLite and Postgres for the device store over two weeks.', { title: 'Storage decision' }),
      snippet(2, 'Maya Chen reviewed the storage benchmarks with Priya.', { title: 'Benchmarks' }),
    ];
    const r = read('Who picked the device store?', s);
    expect(r.answer.startsWith('Storage decision — Decider: Maya Chen. [1]')).toBe(true);
  });

  it('knows a word no file uses when a line states the relation it asks ("boss" for "Reports to:")', () => {
    const s = [snippet(1, '**Role:** Engineer\n**Reports to:** [[Maya Chen]]', { title: 'Priya Raman', path: 'people/Priya Raman.md' })];
    const r = read('Who is the boss of Priya Raman?', s, ['boss']);
    expect(r.unknown).not.toContain('boss');
    expect(r.outcome).not.toBe('not_found');
    expect(r.answer).toContain('Reports to: Maya Chen');
  });

  it('names the person of a note in full when a person is asked and the sentence says only the first name', () => {
    const s = [snippet(1, 'Анна руководит платформенной командой с 2023 года. До того Анна работала в банке.', { title: 'Анна Соколова', path: 'people/Анна Соколова.md' })];
    expect(read('Кто руководит платформенной командой?', s).answer).toBe('Анна Соколова — Анна руководит платформенной командой с 2023 года. [1]');
    // Not for a question that asks no person.
    expect(read('С какого года руководит платформенной командой?', s).answer).toBe('Анна руководит платформенной командой с 2023 года. [1]');
  });

  it('quotes the items of a list after the sentence that announces it, not the prose between them', () => {
    const text = [
      'Sync servers are hosted by DigitalOcean in the following regional locations:',
      '- Asia: Singapore',
      '- Europe: Frankfurt, Germany.',
      '  Latency there is low.',
      '- North America: San Francisco',
      '',
      'Support answers within two days.',
    ].join('\n');
    const r = read('In which regional locations are the Sync servers hosted by DigitalOcean?', [snippet(1, text, { title: 'Security' })]);
    expect(r.answer).toBe('Sync servers are hosted by DigitalOcean in the following regional locations: [1]\nAsia: Singapore. [1]\nEurope: Frankfurt, Germany. [1]\nNorth America: San Francisco. [1]');
  });

  it('quotes the steps after a sentence that announces them with a period ("…the following methods.")', () => {
    const steps = (intro: string) => [intro, '', '1. Open the command palette.', '2. Select Create new canvas.', '', 'Canvas files end in .canvas.'].join('\n');
    const r = read('Which methods create a new canvas?', [snippet(1, steps('To start, you can create a new canvas using the following methods.'), { title: 'Canvas' })]);
    expect(r.answer).toBe('To start, you can create a new canvas using the following methods. [1]\nOpen the command palette. [1]\nSelect Create new canvas. [1]');
    // A sentence that announces nothing is quoted alone.
    const plain = read('Which methods create a new canvas?', [snippet(1, steps('To start, you can create a new canvas from the ribbon.'), { title: 'Canvas' })]);
    expect(plain.answer.startsWith('To start, you can create a new canvas from the ribbon. [1]')).toBe(true);
    expect(plain.answer).not.toContain('Open the command palette.');
  });

  it('answers "How do I…" with the steps of the how-to its title names, from the first step, with their commands', () => {
    const howto = [
      '## Steps',
      '',
      '1. Create a local certificate once:',
      '',
      '   ```bash',
      '   mkcert -install',
      '   ```',
      '',
      '2. Start the relay:',
      '',
      '   ```bash',
      '   make relay-dev',
      '   ```',
      '',
      '   To use another port:',
      '',
      '   ```bash',
      '   AURORA_RELAY_PORT=8443 make relay-dev',
      '   ```',
      '',
      '3. Point the demo app at the relay.',
    ].join('\n');
    const s = [
      snippet(1, 'Every developer should run the relay locally before a review, see the how-to.', { title: 'Retro' }),
      snippet(2, howto, { title: 'Run the relay locally', heading: 'Steps' }),
    ];
    const r = read('How do I run the relay locally?', s);
    expect(r.outcome).toBe('answered');
    expect(r.answer.startsWith('Create a local certificate once: [2]\nmkcert -install [2]\nStart the relay: [2]\nmake relay-dev [2]')).toBe(true);
    expect(r.answer).toContain('\nPoint the demo app at the relay. [2]');
    // A sentence that introduces a code block is quoted with its lines, not with the steps after them.
    expect(read('How do I use another port for the local relay?', s).answer).toBe('To use another port: [2]\nAURORA_RELAY_PORT=8443 make relay-dev [2]');
  });

  it('takes a numbered step of the asked task\'s how-to over a list item of another note that shares more words', () => {
    const s = [
      snippet(1, ['## Timeline', '', '- Certificates were renewed by hand in February, one node was missed.'].join('\n'), { title: 'Incident review relay outage' }),
      snippet(2, ['## When to use this', '', '- The expiry alert has fired.'].join('\n'), { title: 'Renew relay TLS certificates', doc_id: 'renew' }),
      snippet(3, ['## Renewal', '', '1. Check which nodes are affected.', '2. Issue a certificate with the ACME client.'].join('\n'), { title: 'Renew relay TLS certificates', doc_id: 'renew' }),
    ];
    const r = read('How do I renew the relay TLS certificates by hand?', s);
    expect(r.answer).toBe('Check which nodes are affected. [3]\nIssue a certificate with the ACME client. [3]');
    expect(r.task).toBeUndefined();
    // Without the steps among the passages, the reader names the how-to whose own passages hold them.
    expect(read('How do I renew the relay TLS certificates by hand?', s.slice(0, 2)).task).toBe(2);
  });

  it('answers a how-to with the sentence that says how, not with a listing of the files a tool creates', () => {
    const s = [
      snippet(1, ['## What gets imported', '', 'For a base named `Projects` with a `Tasks` table, the importer creates:', '', '```', 'Airtable/', '\tProjects/', '\t\tTasks.base', '\t\tTasks/', '\t\t\tWrite the proposal.md', '```'].join('\n'), { title: 'Import from Airtable' }),
      snippet(2, ['You can create tables using vertical bars (`|`) to separate columns and hyphens (`-`) to define headers.', '', 'Here\'s an example:'].join('\n'), { title: 'Advanced formatting syntax', heading: 'Tables' }),
    ];
    const r = read('How do I create a table in a note?', s);
    expect(r.answer).toBe('You can create tables using vertical bars (`|`) to separate columns and hyphens (`-`) to define headers. [2]');
    // The listing is still what the importer creates.
    expect(read('What does the importer create for a base with a table?', s).answer).toContain('Airtable/ [1]');
  });

  it('quotes the commands a sentence runs straight into, without a colon or a blank line', () => {
    const s = [snippet(1, ['## Upgrade Astro', 'To upgrade Astro, we need to upgrade its integrations too', '```sh', 'npm install astro@latest', '```'].join('\n'), { title: 'Astro' })];
    expect(read('How do I upgrade Astro to the newest version?', s).answer).toBe('To upgrade Astro, we need to upgrade its integrations too. [1]\nnpm install astro@latest [1]');
    // After a blank line the block stands apart: the sentence does not introduce it.
    const apart = [snippet(1, ['## Upgrade Astro', 'To upgrade Astro, we need to upgrade its integrations too', '', '```sh', 'npm install astro@latest', '```'].join('\n'), { title: 'Astro' })];
    expect(read('How do I upgrade Astro to the newest version?', apart).answer).not.toContain('To upgrade Astro, we need to upgrade its integrations too. [1]\nnpm install');
  });

  it('does not answer a how-to question with the steps of another task', () => {
    const s = [snippet(1, ['To embed a PDF in a note:', '', '```md', '![[Document.pdf]]', '```'].join('\n'), { title: 'Embed files' })];
    expect(read('How do I embed a PDF in a note?', s).outcome).toBe('answered');
    const other = read('How can I export a note to PDF?', s);
    expect(other.outcome).not.toBe('answered');
    expect(other.parts[0]!.answered).toBe(false);
  });

  it('answers a Russian how-to with the instruction that does its task, not the steps of another one of its note', () => {
    const text = [
      'Чтобы начать презентацию:',
      '',
      '1. Нажмите `Ctrl+P`, чтобы открыть палитру команд.',
      '2. Найдите команду Начать презентацию.',
      '',
      'Вы можете использовать любой файл Markdown в качестве презентации. Чтобы разделить слайды, введите `---` в начале строки.',
    ].join('\n');
    const r = readAnswer('Как разделить слайды в презентации?', readerCandidates([snippet(1, text, { title: 'Слайды' })], 'ru'), { termStats: stats(), language: 'ru' });
    expect(r.outcome).toBe('answered');
    expect(r.answer).toBe('Чтобы разделить слайды, введите `---` в начале строки. [1]');
  });

  it('reads a Russian question word in any case, and a modal verb, as no word the answer must hold', () => {
    const s = [snippet(1, 'Ранние версии доступны только пользователям с лицензией Catalyst.', { title: 'Ранние версии' })];
    const r = readAnswer('Кому доступны ранние версии?', readerCandidates(s, 'ru'), { termStats: stats(), language: 'ru' });
    expect(r.outcome).toBe('answered');
    expect(r.missing).toEqual([]);
    const deleted = [snippet(1, 'Удалённое хранилище удалено, так как подписка была неактивна более 30 дней.', { title: 'Сообщения' })];
    expect(readAnswer('Почему хранилище могло быть удалено?', readerCandidates(deleted, 'ru'), { termStats: stats(), language: 'ru' }).missing).toEqual([]);
  });

  it('answers a question that asks a superlative only with a quote that states a bound or says it', () => {
    const q = 'What is the largest attachment I can email to support?';
    const none = [snippet(1, 'Attach the log file to your bug report or support email.', { title: 'Help and support' })];
    expect(read(q, none).outcome).toBe('not_found');
    const bound = [snippet(1, 'You can email attachments of up to 20 MB to support.', { title: 'Help and support' })];
    expect(read(q, bound).outcome).toBe('answered');
    // Another superlative of the same direction says it too.
    const city = [snippet(1, 'Warsaw is the biggest city of Poland.', { title: 'Poland' })];
    expect(read('What is the largest city of Poland?', city).outcome).toBe('answered');
    // A limit is a quantity: the superlative alone, with no number, states none.
    const depends = [snippet(1, 'The maximum attachment size you can email to support depends on your plan.', { title: 'Help and support' })];
    expect(read(q, depends).outcome).toBe('not_found');
  });

  it('takes no value from a condition: "If you connect 5 devices, …" does not say how many you may connect', () => {
    const q = 'How many devices can I connect on the free plan?';
    const supposed = [snippet(1, 'If you connect 5 devices on the free plan, sync pauses on the oldest one.', { title: 'Plans' })];
    expect(read(q, supposed).outcome).toBe('not_found');
    const stated = [snippet(1, 'On the free plan you can connect 5 devices.', { title: 'Plans' })];
    expect(read(q, stated).outcome).toBe('answered');
    // A condition that sets a threshold states a requirement.
    const threshold = [snippet(1, 'If your organization has purchased at least 25 licenses, you can be featured on the Enterprise page.', { title: 'Enterprise' })];
    expect(read('How many licenses does a company need to buy to be featured on the Enterprise page?', threshold).outcome).toBe('answered');
    // The counted noun counts even when the question capitalises it.
    const grammy = [snippet(1, 'Six-time Grammy winner Lady Gaga performed the national anthem.', { title: 'Super Bowl 50' })];
    expect(read('How many Grammys has Lady Gaga won?', grammy).outcome).toBe('answered');
    const ru = [snippet(1, 'Если ваша команда состоит из одного человека — да, вы можете использовать одну подписку.', { title: 'Команды' })];
    expect(readAnswer('Сколько человек работает в команде?', readerCandidates(ru, 'ru'), { termStats: stats(), language: 'ru' }).outcome).toBe('not_found');
  });

  it('answers a price or a named calendar value only with a quote that holds one', () => {
    // Every other word of the question held ("cost", a verb no file holds, weighs nothing).
    const plans = [snippet(1, 'Version history; Sync Standard: 1 month; Sync Plus: 12 months.', { title: 'Sync plans' })];
    expect(read('How much does Sync Standard cost per month?', plans, ['cost']).outcome).toBe('not_found');
    const price = [snippet(1, 'Sync Standard costs $4 per month, billed annually.', { title: 'Sync plans' })];
    expect(read('How much does a Sync Standard subscription cost per month?', price).outcome).toBe('answered');
    const free = [snippet(1, 'Obsidian is free for personal use, with no account needed.', { title: 'Pricing' })];
    expect(read('How much does Obsidian cost for personal use?', free).outcome).toBe('answered');
    const field = [snippet(1, 'Field: `date.year`; Type: `number`; Description: the year of the date.', { title: 'Functions' })];
    expect(read('In what year was the date field first described?', field, ['describ']).outcome).toBe('not_found');
    const year = [snippet(1, 'The date field was first described in 2021.', { title: 'Functions' })];
    expect(read('In what year was the date field first described?', year, ['describ']).outcome).toBe('answered');
    // The question's capitalised first word is no value of its own: "In which year…" leaves "In 1237" a year.
    const invasion = [snippet(1, "In 1237 Batu Khan, a grandson of Genghis Khan, launched an invasion into Kievan Rus'.", { title: 'Mongol Empire' })];
    expect(read("In which year did Genghis Khan's grandson invade Kievan Rus'?", invasion).outcome).toBe('answered');
    // Of two parts, the one whose value no quote holds is the one left open.
    const both = [snippet(1, 'Sync Standard keeps version history for 1 month.', { title: 'Sync plans' })];
    const r = read('How long does Sync Standard keep version history, and how much does Sync Standard cost?', both);
    expect(r.parts.map((p) => p.answered)).toEqual([true, false]);
  });

  it('reads a percentage as stated by a number with the sign', () => {
    const s = [snippet(1, 'Both give you 40% off Obsidian Sync and Publish.', { title: 'Education discount' })];
    expect(read('What percentage off Sync do students get?', s).outcome).toBe('answered');
  });

  it('reads one naming verb for another: "called" is answered by "named"', () => {
    const s = [
      snippet(1, 'Each field is attributed a variable called `{{field_name}}`.', { title: 'Import' }),
      snippet(2, 'By default, your configuration folder is named `.obsidian` and placed in the vault folder.', { title: 'Configuration folder' }),
    ];
    expect(read('What is the configuration folder called by default?', s).answer.startsWith('By default, your configuration folder is named `.obsidian`')).toBe(true);
    // Without "named" standing for "called", a quote holding half the question's words does not answer it.
    expect(read('What is the folder called?', s.slice(1)).outcome).toBe('answered');
  });

  it('quotes the steps a sentence announces in their order, one of them quoted already or not', () => {
    const text = ['To invite a user to a shared vault:', '', '1. Open Settings.', '2. Select Sync.', '3. In Invite user, enter the email of the user you want to invite.', '4. Select Add.'].join('\n');
    const r = read('How do I invite a user to my shared vault?', [snippet(1, text, { title: 'Collaborate on a shared vault' })]);
    expect(r.answer).toBe('To invite a user to a shared vault: [1]\nOpen Settings. [1]\nSelect Sync. [1]\nIn Invite user, enter the email of the user you want to invite. [1]\nSelect Add. [1]');
  });

  it('quotes the sentence for a later part when the lead holds only the words that part inherits', () => {
    const text = 'If you create a new note at 09:45 on Jan 1st, 2024, the creator names it `202401010945`. If a note with the same name exists, the new note uses the next available timestamp.';
    const r = read('What name does the creator give a note made at 09:45 on Jan 1st 2024, and what happens when a note with that name already exists?', [snippet(1, text, { title: 'Unique note creator' })]);
    expect(r.outcome).toBe('answered');
    expect(r.answer).toContain('next available timestamp');
  });

  it('answers each part of a two-part question, and says which part the notes leave open', () => {
    const s = [snippet(1, 'The outage lasted 47 minutes. Root cause: an expired TLS certificate on the relay.', { title: 'Relay outage' })];
    const both = read('How long did the relay outage last, and what was its root cause?', s);
    expect(both.outcome).toBe('answered');
    expect(both.answer).toContain('47 minutes');
    expect(both.answer).toContain('expired TLS certificate');
    const one = read('How long did the relay outage last, and who approved the postmortem?', [snippet(1, 'The relay outage lasted 47 minutes.')]);
    expect(one.outcome).toBe('partial');
    expect(one.parts.filter((p) => !p.answered).map((p) => p.part)).toEqual(['who approved the postmortem?']);
  });

  it('reads Russian questions and notes the same way', () => {
    const s = [snippet(1, '«Северный Софт» делает приложение для инженеров. Партнёр запустит пилот на 1200 полевых планшетах. Пилот начнётся 1 июня 2026 года.', { title: 'Встреча с партнёрами' })];
    const r = read('На скольких планшетах запустят пилот и когда он начнётся?', s);
    expect(r.outcome).toBe('answered');
    expect(r.answer).toContain('1200');
    expect(r.answer).toContain('1 июня 2026');
    expect(r.answer).not.toContain('делает приложение');
  });

  it('says "not found" when the asked attribute is a word no file holds, offering the closest sentences', () => {
    const s = [snippet(1, 'Lumen Labs is a software company based in Rotterdam, founded by Sofia Lindqvist and Daniel Okafor.')];
    const r = read('Who is the general counsel of Lumen Labs?', s, ['counsel']);
    expect(r.outcome).toBe('not_found');
    expect(r.answer).toBe('');
    expect(r.unknown).toEqual(['counsel']);
    expect(r.closest[0]!.text).toMatch(/^Lumen Labs is/);
  });

  it('says "not found" when no sentence holds the asked kind of value or the question\'s words', () => {
    const s = [snippet(1, 'The relay is written in Go. The team meets on Mondays.')];
    expect(read('How many engineers maintain the billing service?', s).outcome).toBe('not_found');
    expect(read('What is the colour of the office kitchen?', s).outcome).toBe('not_found');
  });

  it('adds a sentence for the other hop of a multi-hop question, not to fill space', () => {
    const s = [
      snippet(1, 'Maya Chen leads the sync team. She likes hiking.', { title: 'Maya Chen' }),
      snippet(2, 'We chose SQLite for on-device storage. The decision was recorded on 2026-03-14.', { title: 'Database for on-device storage' }),
    ];
    const r = read('Which database did the person who leads the sync team pick for on-device storage?', s);
    expect(r.answer).toContain('SQLite');
    expect(r.answer).toContain('Maya Chen leads the sync team');
    expect(r.answer).not.toContain('hiking');
  });

  it('quotes the sentence after the lead that goes on about the subject of the lead with a question word', () => {
    const s = [snippet(1, 'When considering computational problems, a problem instance is a string over an alphabet. Usually, the alphabet is taken to be the binary alphabet. Cats sleep a lot.')];
    const r = read('Which alphabet is used for a problem instance string?', s);
    expect(r.answer).toBe('When considering computational problems, a problem instance is a string over an alphabet. [1] Usually, the alphabet is taken to be the binary alphabet. [1]');
    const ru = [snippet(1, 'Во время смены приложение пишет трек курьера. Трек хранится в базе ClickHouse. Курьеры любят чай.')];
    expect(read('Где приложение курьера пишет трек?', ru).answer).toBe('Во время смены приложение пишет трек курьера. [1] Трек хранится в базе ClickHouse. [1]');
  });

  it('does not quote the next row of a table with its lead: it opens with the column label, about another record', () => {
    const table = ['| Code | Meaning | Raised by |', '|---|---|---|', '| AUR-1102 | Schema version mismatch between client and relay | Relay |', '| AUR-1207 | Clock skew too large | SDK |'].join('\n');
    // The code is the question's rarest word, as in a real vault of many codes.
    const rare = (terms: readonly string[]) => new Map(terms.map((t) => [t, { idf: /1102/.test(t) ? 6 : 1, df: /1102/.test(t) ? 1 : 30 }]));
    const r = readAnswer('What does the error code AUR-1102 mean?', readerCandidates([snippet(1, table, { title: 'Error codes' })]), { termStats: rare });
    expect(r.answer).toBe('Code: AUR-1102; Meaning: Schema version mismatch between client and relay; Raised by: Relay. [1]');
  });

  it('quotes the sentence after the lead that points back at a question word of the lead ("these drugs")', () => {
    const s = [snippet(1, 'Anti-inflammatory drugs are often used to control inflammation. Glucocorticoids are the most powerful of these drugs. Side effects vary.')];
    const r = read('What is the most powerful class of anti-inflammatory drugs used to control inflammation?', s);
    expect(r.answer).toBe('Anti-inflammatory drugs are often used to control inflammation. [1] Glucocorticoids are the most powerful of these drugs. [1]');
    // Pointing back at a word the question does not ask about is no reason to quote it.
    const other = [snippet(1, 'Anti-inflammatory drugs are often used to control inflammation. Some patients dislike these pills. Side effects vary.')];
    expect(read('What is the most powerful class of anti-inflammatory drugs used to control inflammation?', other).answer).toBe('Anti-inflammatory drugs are often used to control inflammation. [1]');
  });

  it('quotes the sentence before a lead that names the asked thing by pointing back at it ("the neighborhood")', () => {
    const notes = (lead: string) => [snippet(1, `The West Side is one of the oldest parts of the city. ${lead} Parks are many.`)];
    const q = 'Which neighborhood lies west of the 41 freeway?';
    expect(read(q, notes('The neighborhood lies southwest of the 99 freeway and west of the 41 freeway.')).answer).toBe(
      'The neighborhood lies southwest of the 99 freeway and west of the 41 freeway. [1] The West Side is one of the oldest parts of the city. [1]',
    );
    // A lead that names a neighborhood of its own says which itself.
    expect(read(q, notes('Brookhaven is a neighborhood west of the 41 freeway.')).answer).toBe('Brookhaven is a neighborhood west of the 41 freeway. [1]');
    const ru = [snippet(1, 'Команда выбрала Казань. Этот город лежит на Волге и близко к складу. Погода хорошая.')];
    expect(read('Какой город лежит на Волге близко к складу?', ru, []).answer).toBe('Этот город лежит на Волге и близко к складу. [1] Команда выбрала Казань. [1]');
  });

  it('quotes the best sentence for a later part that a quoted sentence answers only weakly', () => {
    // The sentence with the function is in a passage ranked well below the lead's: no filler reaches it.
    const s = [
      snippet(1, 'Standard encryption uses an encryption key managed by the company to protect your synced data in transit.'),
      snippet(2, 'Sync keeps your notes on every device.'),
      snippet(3, 'Vaults can be shared with a team.'),
      snippet(4, 'The encryption process involves these details. Key derivation function: scrypt with salt.'),
    ];
    // "derivation" is the rare word that names what the second part asks.
    const rare = (terms: readonly string[]) => new Map(terms.map((t) => [t, { idf: t.startsWith('deriv') ? 6 : 2, df: 3 }]));
    const r = readAnswer('What encryption protects my synced data, and which key derivation function do they use?', readerCandidates(s), { termStats: rare });
    expect(r.answer).toContain('Standard encryption uses');
    expect(r.answer).toContain('scrypt');
  });

  it('counts a word derived from a question word, less than the word itself', () => {
    const s = [snippet(1, 'The museum shows paintings in twelve rooms. The museum shows the history of Mongolia in twelve rooms.')];
    const r = read('What does the museum show about the Mongols?', s);
    expect(r.answer.startsWith('The museum shows the history of Mongolia in twelve rooms. [1]')).toBe(true);
    expect(derivedWords(matchForm(tokenize('Mongolia')[0]!.term), matchForm(tokenize('Mongols')[0]!.term))).toBe(true);
    expect(derivedWords(matchForm(tokenize('percentage')[0]!.term), matchForm(tokenize('percent')[0]!.term))).toBe(true);
    expect(derivedWords(matchForm(tokenize('scientific')[0]!.term), matchForm(tokenize('science')[0]!.term))).toBe(true);
    // A short shared beginning, or a long word that goes on far past it, is another word.
    expect(derivedWords('transport', 'transform')).toBe(false);
    expect(derivedWords('electrostat', 'electr')).toBe(false);
    expect(derivedWords('mongol', 'mongol')).toBe(false);
    expect(derivedWords('code', 'coder')).toBe(false);
  });

  it('reads the bound a sentence states ("up to 5 MB", "5.1 and above") as the superlative the question asks', () => {
    const plans = [snippet(1, 'Sync plans differ in how much they store. The Standard plan allows syncing files up to 5 MB. The single biggest change this year is the new plan page.', { title: 'Plans' })];
    const big = read('What is the biggest single file I can sync on the Standard plan?', plans);
    expect(big.outcome).toBe('answered');
    expect(big.answer.startsWith('The Standard plan allows syncing files up to 5 MB. [1]')).toBe(true);
    // "How much … can one site hold?" asks a capacity, which a note states as a bound.
    const media = [snippet(1, 'Each site shows its media in one list. Publish hosts notes and media types, with a limit of 4 GB per site.', { title: 'Media files' })];
    const capacity = read('How much media in total can one site hold?', media);
    expect(capacity.outcome).toBe('answered');
    expect(capacity.answer.startsWith('Publish hosts notes and media types, with a limit of 4 GB per site. [1]')).toBe(true);
    const android = [snippet(1, 'Versions of the Android app are numbered from newest to oldest. The Android app supports versions 5.1 and above.', { title: 'Android app' })];
    expect(read('Which is the oldest Android version the app supports?', android).answer.startsWith('The Android app supports versions 5.1 and above. [1]')).toBe(true);
  });

  it('tells a misspelt word from another word', () => {
    expect(misspelling('recovry', 'recovery')).toBe(true);
    expect(misspelling('algoritm', 'algorithm')).toBe(true);
    expect(misspelling('teh', 'the')).toBe(false);
    expect(misspelling('snapshtos', 'snapshots')).toBe(true);
    expect(misspelling('cuase', 'cause')).toBe(true);
    expect(misspelling('chainging', 'changing')).toBe(true);
    expect(misspelling('guarentee', 'guarantee')).toBe(true);
    expect(misspelling('recovry', 'discovery')).toBe(false);
    expect(misspelling('outage', 'outage')).toBe(false);
    // Short words one letter apart are as often two words; long ones may be two letters off.
    expect(misspelling('bogus', 'bonus')).toBe(false);
    expect(misspelling('parental', 'parents')).toBe(false);
    expect(misspelling('infrastucure', 'infrastructure')).toBe(true);
    expect(misspelling('kestrel', 'kernel')).toBe(false);
  });

  it('quotes the sentence a misspelt word names only for a word no file holds', () => {
    const s = [snippet(1, 'Snapshots are kept for 30 days by the sync service.'), snippet(2, 'The recovery plugin keeps its copies for 7 days.')];
    const r = readAnswer('How long does the recovry plugin keep snapshots?', readerCandidates(s), { termStats: stats(['recovri']) });
    expect(r.spelled).toEqual({ recovry: 'recovery' });
    expect(r.answer.startsWith('The recovery plugin keeps its copies for 7 days. [2]')).toBe(true);
    // A word the vault holds is its own word, however close to another.
    expect(read('How long does the recovry plugin keep snapshots?', s).spelled).toBeUndefined();
    // An inflected language is compared by stems as well: «курьров» is «курьерах».
    const ru = [snippet(1, 'Пилот идёт на 350 курьерах в Казани.')];
    const typo = tokenize('курьров', 'ru')[0]!.term;
    const r2 = readAnswer('Сколько курьров в пилоте?', readerCandidates(ru, 'ru'), { termStats: stats([typo]), language: 'ru' });
    expect(r2.spelled).toEqual({ курьров: 'курьерах' });
  });

  it('reads the noun a what/which question asks for', () => {
    expect([...askedNouns('What device is used to treat carbon monoxide poisoning?')]).toEqual([matchForm(tokenize('device')[0]!.term)]);
    expect(askedNouns('Which neighborhood lies west of the freeway?').has(matchForm(tokenize('neighborhood')[0]!.term))).toBe(true);
    expect(askedNouns('What is the name of the stadium?').size).toBe(0);
    expect(askedNouns('Какой город лежит на Волге?', 'ru').has(matchForm(tokenize('город', 'ru')[0]!.term))).toBe(true);
    expect(askedNouns('Who wrote it?').size).toBe(0);
  });

  it('does not add a sentence of a distant passage that holds one rare question word', () => {
    const s = [
      snippet(1, 'The relay team keeps backups in the Frankfurt bucket.'),
      snippet(2, 'Sprint notes for the week.'),
      snippet(3, 'Lunch menu for Friday.'),
      snippet(4, 'The freeze on hiring continues.'),
    ];
    const rare = (terms: readonly string[]) => new Map(terms.map((t) => [t, { idf: t === 'freez' ? 6 : 2, df: 3 }]));
    const r = readAnswer('Where does the relay team keep backups during a freeze?', readerCandidates(s), { termStats: rare });
    expect(r.answer).toBe('The relay team keeps backups in the Frankfurt bucket. [1]');
  });

  it('quotes a runner-up that answers as well as the lead before a sentence that only brings a missing question word', () => {
    const s = [
      snippet(1, 'Tesla founded a lighting company with two partners in 1886. The lighting company installed arc lamps that Tesla designed.'),
      snippet(2, 'The studio was hired to produce a new identity for the network.'),
    ];
    const r = read('What did the lighting company of Tesla produce?', s);
    expect(r.answer).toContain('Tesla founded a lighting company');
    expect(r.answer).toContain('The lighting company installed arc lamps that Tesla designed. [1]');
  });

  it('quotes no runner-up about another record than the one the question names by its code', () => {
    const s = [snippet(1, 'Tesla founded a lighting company with two partners in 1886. The lighting company installed arc lamps that Tesla designed.')];
    // The same question about a record named by a code the runner-up does not hold: the lead alone.
    const named = [snippet(1, 'The lighting company LC-1886 installed 40 arc lamps in the old town square.'), snippet(2, 'The lighting company LC-1890 installed 25 arc lamps in the old town square.')];
    expect(read('How many arc lamps did the lighting company LC-1886 install in the old town square?', named).answer).toBe('The lighting company LC-1886 installed 40 arc lamps in the old town square. [1]');
    expect(read('What did the lighting company of Tesla produce?', s).answer).toContain('The lighting company installed arc lamps that Tesla designed. [1]');
  });

  it('follows a name from one note to another: the sentence that answers, and the one that says what it is about', () => {
    const s = [
      snippet(1, 'The beta starts in May, after the review.', { title: 'Planning' }),
      snippet(2, 'Version 2.0 is called Heron. Version 3.0 is called Ibis.', { title: 'Release names' }),
      snippet(3, 'The beta was discussed at length. Heron beta starts on 2026-05-18.', { title: 'Beta review' }),
    ];
    const r = read('When does the beta of version 2.0 start?', s);
    expect(r.answer.startsWith('Heron beta starts on 2026-05-18. [3]')).toBe(true);
    expect(r.answer).toContain('Version 2.0 is called Heron. [2]');
    // Without the name that joins them, the dated sentence gains nothing from the version's note.
    const apart = read('When does the beta of version 2.0 start?', [s[0]!, snippet(2, 'Version 2.0 is called Heron.', { title: 'Release names' }), snippet(3, 'The Osprey beta starts on 2026-05-18.', { title: 'Beta review' })]);
    expect(apart.answer.startsWith('The Osprey beta')).toBe(false);
  });

  it('follows a name in Russian too, whatever its case («Цапля», «Цапли»)', () => {
    const s = [
      snippet(1, 'Бета стартует в мае, после обзора.', { title: 'Планирование' }),
      snippet(2, 'Версия 2.0 называется Цапля. Версия 3.0 называется Ибис.', { title: 'Кодовые имена' }),
      snippet(3, 'Бету долго обсуждали. Бета Цапли стартует 2026-05-18.', { title: 'Обзор беты' }),
    ];
    const r = read('Когда стартует бета версии 2.0?', s);
    expect(r.answer.startsWith('Бета Цапли стартует 2026-05-18. [3]')).toBe(true);
    expect(r.answer).toContain('Версия 2.0 называется Цапля. [2]');
  });

  it('does not hop through a name the question gives, nor to a person a sentence only lists', () => {
    const s = [
      snippet(1, 'Anna Sokolova works from Kazan.', { title: 'Anna Sokolova' }),
      snippet(2, 'Manager: Anna Sokolova. Pavel Kim works from Novosibirsk.', { title: 'Pavel Kim' }),
      snippet(3, 'Anna leads the platform team: Pavel Kim and Igor Lebedev.', { title: 'Anna Sokolova', doc_id: 'doc-1' }),
    ];
    const r = read('Where does Pavel Kim work from?', s);
    expect(r.answer.startsWith('Pavel Kim works from Novosibirsk. [2]')).toBe(true);
    expect(r.answer).not.toContain('Kazan');
  });

  it('offers the notes and names the best sentences point to as subjects of a second hop', () => {
    const s = [snippet(1, 'Decider: [[Rosa Diaz]]. We chose NATS for the event bus, see [[Queue benchmarks]].', { title: '2026-02-10 Queue choice' })];
    const r = read('Where does the engineer who chose NATS for the event bus work from?', s);
    expect(r.hops).toEqual(expect.arrayContaining(['Rosa Diaz', 'Queue benchmarks']));
    expect(r.hops).not.toContain('NATS');
  });

  it('quotes the comment or the line of code that holds the value', () => {
    const go = '// DefaultTombstoneTTL: tombstones are kept for 45 days before they are\n// garbage-collected by the relay.\nDefaultTombstoneTTL = 45 * 24 * time.Hour';
    const r = read('How long are tombstones retained before garbage collection?', [snippet(1, go, { language: 'go', path: 'code/config.go' })]);
    expect(r.answer).toBe('DefaultTombstoneTTL: tombstones are kept for 45 days before they are garbage-collected by the relay. [1]');
    const ts = 'export const MAX_RETRIES = 5;\nexport const BACKOFF_MS = 250;';
    expect(read('How many retries does the sync engine attempt?', [snippet(1, ts, { language: 'typescript', title: 'sync_engine.ts' })]).answer).toBe('export const MAX_RETRIES = 5; [1]');
  });

  it('reads a setting with the comment above it, and a command with the sentence that introduces its code block', () => {
    const go = '// Сколько уведомлений отправляем в одном пакете провайдеру push.\nBatchSize = 500\n\n// Пауза между попытками.\nRetryBackoff = 20 * time.Second';
    expect(read('Сколько уведомлений отправляется в одном пакете?', [snippet(1, go, { language: 'go', title: 'notifier.go' })]).answer).toBe('BatchSize = 500 [1]');
    const md = 'Нужны Docker и make.\n\nПоднимите окружение одной командой:\n\n```sh\nmake dev-stack\n```\n\nПервый запуск занимает около 10 минут.';
    const r = read('Какой командой поднять локальное окружение?', [snippet(1, md, { title: 'Локальный запуск' })]);
    expect(r.answer.startsWith('make dev-stack [1]')).toBe(true);
    // A line of a code block that no sentence introduces gets no words from the prose around it.
    const bare = 'Поднимите окружение одной командой.\n\n```sh\nmake dev-stack\n```';
    expect(read('Какой командой поднять локальное окружение?', [snippet(1, bare, { title: 'Локальный запуск' })]).answer.startsWith('make dev-stack')).toBe(false);
  });

  it('reads a line of a shell block as a command, and a word of code that abbreviates a question word as that word', () => {
    const s = [
      snippet(1, 'The three promises we make to app developers: no lost edits, no silent conflicts, no surprises.', { title: 'Project Aurora' }),
      snippet(2, 'Start the dependencies and the relay:\n\n```bash\ndocker compose up -d\nmake relay-dev   # builds and runs the relay\n```', { title: 'Run the relay locally' }),
    ];
    const r = read('Which make command brings up a development relay on a laptop?', s);
    expect(r.answer.startsWith('make relay-dev')).toBe(true);
    // In prose a short word is a word of its own: "dev" there does not stand for "development".
    const prose = [snippet(1, 'Ask a dev before you change the relay.', { title: 'Relay' }), snippet(2, 'Development of the relay started in 2025.', { title: 'History' })];
    expect(read('When did development of the relay start?', prose).answer).toContain('2025');
  });

  it('with sentence vectors, leads with the sentence nearest the question among those the words cannot tell apart', () => {
    const s = [snippet(1, 'The relay team chose Kafka in March. The relay team chose NATS in March.', { title: 'Queue' })];
    const q = 'Which queue did the relay team choose?';
    expect(read(q, s).answer.startsWith('The relay team chose Kafka')).toBe(true);
    const similarity = sentenceSimilarity([
      { text: 'The relay team chose Kafka in March.', score: 0.81 },
      { text: 'The relay team chose **NATS** in March.', score: 0.88 },
    ]);
    const r = readAnswer(q, readerCandidates(s), { termStats: stats(), similarity });
    expect(r.answer.startsWith('The relay team chose NATS')).toBe(true);
    expect(r.similarity).toBe(0.88);
    // A sentence is found among the stored ones whatever the markup; one not stored has no cosine.
    expect(similarity('- **Decision:** none')).toBeUndefined();
    expect(sentenceSimilarity([{ text: '- **Decision:** use SQLite for storage', score: 0.9 }])('Decision: use SQLite for storage')).toBe(0.9);
  });

  it('quotes a field line with the note it is about, unless the line names it or the title is a dated record', () => {
    const person = snippet(1, '# Анна Соколова\n\n**Город:** работает из офиса в Казани\n**Роль:** руководитель платформы', { title: 'Анна Соколова' });
    expect(read('В каком городе работает руководитель платформы?', [person]).answer.startsWith('Анна Соколова — Город: работает из офиса в Казани. [1]')).toBe(true);
    const dated = snippet(1, '**Date:** 2026-03-14\n\nWe chose SQLite for on-device storage.', { title: '2026-03-14 Storage decision' });
    const onDate = read('On what date was the storage decided?', [dated]).answer;
    expect(onDate).toContain('Date: 2026-03-14. [1]');
    expect(onDate).not.toContain('—');
  });

  it('when nothing answers, names the question words no retrieved passage holds, not those the closest sentence lacks', () => {
    const s = [
      snippet(1, 'Employees get a laptop on their first day.', { title: 'Onboarding' }),
      snippet(2, 'Planning weeks start on a Monday.', { title: 'Calendar' }),
    ];
    const r = read('How many weeks of parental leave do employees get?', s);
    expect(r.outcome).toBe('not_found');
    expect(r.missing).toEqual(expect.arrayContaining(['parental', 'leave']));
    expect(r.missing).not.toContain('weeks');
    expect(r.missing).not.toContain('employees');
  });

  it('meets a Russian name or noun asked in another case, its fleeting vowel dropped', () => {
    expect(matchForm('павел')).toBe('павл');
    expect(matchForm('павл')).toBe('павл');
    expect(matchForm('relay')).toBe('relay');
    // An irregular past or participle meets its verb; a form that is also a noun or a name does not.
    for (const [form, verb] of [['began', 'begin'], ['begun', 'begin'], ['led', 'lead'], ['wrote', 'write'], ['written', 'write'], ['chosen', 'choos'], ['paid', 'pay']]) expect(matchForm(form!)).toBe(matchForm(verb!));
    for (const noun of ['left', 'found', 'saw', 'rose', 'drew']) expect(matchForm(noun)).toBe(noun);
    const s = [snippet(1, 'Анна руководит командой, в неё входит Павел Ким. Игорь ведёт мобильное приложение.', { title: 'Команда' })];
    const r = read('Кто руководит Павлом?', s);
    expect(r.answer.startsWith('Анна руководит командой')).toBe(true);
    expect(r.missing).toEqual([]);
  });

  it('answers each part of a question with a sentence that holds that part\'s kind of value', () => {
    const text = 'Пилот начнётся 1 июля 2026 года и продлится два месяца. Заказчик запустит пилот на 350 курьерах в Казани. Курьеры работают через мессенджер.';
    const r = read('Сколько курьеров участвует в пилоте и когда он начнётся?', [snippet(1, text, { title: 'Встреча с заказчиком' })]);
    expect(r.answer).toContain('350 курьерах');
    expect(r.answer).toContain('1 июля 2026');
    expect(r.outcome).toBe('answered');
  });
});


  it('quotes the code block a quoted sentence introduces with ":" after it', () => {
    const s = [snippet(1, 'Start all the dependencies locally with one command:\n\n```sh\nmake dev-up\n```\n\nThe database listens on port 5433.', { title: 'Local setup' })];
    expect(read('How do I start all the dependencies locally?', s).answer).toBe('Start all the dependencies locally with one command: [1]\nmake dev-up [1]');
    const zh = [snippet(1, '在项目根目录运行下面的命令即可启动全部依赖：\n\n```sh\nmake dev-up\n```\n', { title: '本地开发环境' })];
    expect(readAnswer('怎么在本地启动全部依赖？', readerCandidates(zh), { termStats: stats() }).answer).toBe('在项目根目录运行下面的命令即可启动全部依赖： [1]\nmake dev-up [1]');
  });

  it('quotes what a sentence ending in ":" announces when it is neither a list nor code: a component block\'s command', () => {
    const text = 'Several copies of the package cause the warning.\n\nIf you manage packages with Node, check the copies from the project folder:\n\n<TerminalBlock>\n\nnpm ls react\n\n</TerminalBlock>\n\nIf you see more than one, fix your dependency tree.';
    const r = read('How do I check whether the project has several copies of the react package?', [snippet(1, text, { title: 'Invalid hook call' })]);
    expect(r.answer).toContain('check the copies from the project folder: [1]\nnpm ls react [1]');
  });

  it('reads the title a link points at as near the sentence, not as its own words', () => {
    const s = [
      snippet(1, 'If you are unsure of your region, check out [[Security#Where are the Sync servers hosted|Where are the Sync servers hosted and which company runs them?]] for guidance.', { title: 'Set up Sync' }),
      snippet(2, 'Sync servers are hosted by DigitalOcean in several regions.', { title: 'Security' }),
    ];
    const r = read('Which company hosts the Sync servers?', s);
    expect(r.answer).toBe('Sync servers are hosted by DigitalOcean in several regions. [2]');
    // A link of a few words names a thing: its words are the sentence's own.
    const named = [snippet(1, '[[Sync servers]] are run by DigitalOcean.'), snippet(2, 'Sync servers are fast.')];
    expect(read('Which company runs the Sync servers?', named).answer).toBe('Sync servers are run by DigitalOcean. [1]');
  });
describe('the form the question shows (directForms)', () => {
  it('prefers the sentence with the preposition the question ends on before a name', () => {
    const note = snippet(1, '## Background\n\nBefore joining he spent five years at a payments company in Madrid working on queues.\n\n## Notes\n\n- Works remotely from Valencia, comes to Rotterdam once a month.', { title: 'Tomás Herrera' });
    const q = 'Where does Tomás Herrera work from?';
    expect(readAnswer(q, readerCandidates([note]), { termStats: stats(), directForms: true }).answer).toMatch(/^Works remotely from Valencia/);
    // Without it, the two sentences tie on the words and the earlier one leads.
    expect(readAnswer(q, readerCandidates([note]), { termStats: stats() }).answer).toMatch(/^Before joining/);
  });
});

describe('the question held together', () => {
  it('abstains when the notes hold the question\'s words only scattered over sentences (English)', () => {
    const q = 'Which river flows past the Harvard campus?';
    const topic = snippet(1, 'Harvard was founded in 1636 and its campus grew over centuries. Several rivers cross Massachusetts. The river towns flourished.', { title: 'Harvard' });
    const scattered = read(q, [topic]);
    expect(scattered.outcome).toBe('not_found');
    // The other rules alone would quote it: holding the words together is what decides.
    expect(readAnswer(q, readerCandidates([topic]), { termStats: stats(), together: false }).outcome).not.toBe('not_found');
    const stated = read(q, [topic, snippet(2, 'The Charles River flows past the Harvard campus on its way to Boston.')]);
    expect(stated.outcome).toBe('answered');
    expect(stated.answer).toBe('The Charles River flows past the Harvard campus on its way to Boston. [2]');
    expect(stated.answerability).toBeGreaterThan(scattered.answerability);
  });

  it('abstains when the notes hold the question\'s words only scattered over sentences (Russian)', () => {
    const q = 'Сколько курьеров работает на складе в Казани?';
    const topic = snippet(1, 'Курьеры получат 40 новых курток. Погода в июле жаркая. Казань — крупный город. Склад открыт круглосуточно.', { title: 'Склады' });
    expect(read(q, [topic]).outcome).toBe('not_found');
    expect(readAnswer(q, readerCandidates([topic]), { termStats: stats(), together: false }).outcome).not.toBe('not_found');
    const stated = read(q, [topic, snippet(2, 'На складе в Казани работает 12 курьеров.')]);
    expect(stated.outcome).toBe('answered');
    expect(stated.answer.startsWith('На складе в Казани работает 12 курьеров. [2]')).toBe(true);
  });

  it('counts the sentences of each hop together for a question with a relative clause', () => {
    const s = [
      snippet(1, 'Maintainer: Nadia Volkova.', { title: 'Client SDK' }),
      snippet(2, 'The Client SDK rotates its data encryption key every 90 days.', { title: 'Encryption at rest' }),
    ];
    const r = read('How often does the library that Nadia Volkova maintains rotate its encryption key?', s);
    expect(r.outcome).toBe('answered');
    expect(r.answer).toContain('every 90 days');
    expect(r.answer).toContain('Nadia Volkova');
  });

  it('answers "what" with a thing named by a common noun, not with the sentence full of names', () => {
    const s = [snippet(1, 'Alan Turing described the alphabet of the Turing Machine. A problem instance is a string over an alphabet.', { title: 'Complexity' })];
    const r = read('What can be described as a string over an alphabet?', s);
    expect(r.outcome).toBe('answered');
    expect(r.answer.startsWith('A problem instance is a string over an alphabet. [1]')).toBe(true);
  });

  it('with sentence vectors, lets the words and the vectors decide together', () => {
    const q = 'Which river flows past the Harvard campus?';
    const topic = snippet(1, 'Harvard was founded in 1636 and its campus grew over centuries. Several rivers cross Massachusetts. The river towns flourished.', { title: 'Harvard' });
    const stated = snippet(2, 'The Charles River flows past the Harvard campus on its way to Boston.');
    const withCosines = (snippets: Snippet[], scores: number[]) => {
      const candidates = readerCandidates(snippets);
      const similarity = sentenceSimilarity(candidates.map((c, i) => ({ text: c.text, score: scores[i]! })));
      return readAnswer(q, candidates, { termStats: stats(), similarity });
    };
    // Scattered words, but the quoted sentence stands far above the others: the vectors hear a statement.
    expect(withCosines([topic], [0.95, 0.7, 0.7]).outcome).not.toBe('not_found');
    // Scattered words and no sentence standing out: not found, as without vectors.
    expect(withCosines([topic], [0.8, 0.8, 0.8]).outcome).toBe('not_found');
    // The words hold the sentence whole: the vectors may lower the evidence, not veto the answer.
    const unlike = withCosines([topic, stated], [0.9, 0.9, 0.9, 0.6]);
    const like = withCosines([topic, stated], [0.8, 0.8, 0.8, 0.92]);
    expect(unlike.outcome).toBe('answered');
    expect(like.outcome).toBe('answered');
    expect(unlike.answerability).toBeLessThan(like.answerability);
    // In Russian alike: scattered words, lifted only when the quote stands out.
    const ru = snippet(3, 'Курьеры получат 40 новых курток. Погода в июле жаркая. Казань — крупный город. Склад открыт круглосуточно.', { title: 'Склады' });
    const ruRead = (scores: number[]) => {
      const candidates = readerCandidates([ru]);
      const similarity = sentenceSimilarity(candidates.map((c, i) => ({ text: c.text, score: scores[i]! })));
      return readAnswer('Сколько курьеров работает на складе в Казани?', candidates, { termStats: stats(), similarity });
    };
    expect(ruRead([0.8, 0.8, 0.8, 0.8]).outcome).toBe('not_found');
    expect(ruRead([0.95, 0.7, 0.7, 0.7]).outcome).not.toBe('not_found');
  });

  it('reads a sentence too long to quote clause by clause', () => {
    const leaders = Array.from({ length: 40 }, (_, i) => `Governor General Person${i} of Province${i}`).join('; ');
    const s = [snippet(1, `Politics: UN Secretary General Ban Ki-moon; ${leaders}; Costa Rican President José María Figueres.`, { title: 'Harvard alumni' })];
    const r = read('Which UN Secretary General studied at Harvard?', s);
    expect(r.outcome).toBe('answered');
    expect(r.answer).toContain('Politics: UN Secretary General Ban Ki-moon. [1]');
    expect(r.answer).not.toContain('Person');
  });

  it('answers a question whose word for the answer\'s form no file uses ("nickname")', () => {
    const s = [snippet(1, 'The Delta in the Netherlands is known as the Low Countries.')];
    const r = read('What is the nickname for the Delta in the Netherlands?', s, tokenize('nickname').map((t) => t.term));
    expect(r.unknownAttribute).toBe(false);
    expect(r.outcome).toBe('answered');
    expect(r.answer).toBe('The Delta in the Netherlands is known as the Low Countries. [1]');
  });

  it('reads a sentence that opens with a pronoun as about what the sentence before it names', () => {
    const en = [snippet(1, "Warsaw's first stock exchange opened in 1817 and traded until the war. It was re-established in April 1991. The city has many parks.")];
    expect(read('When was the Warsaw stock exchange re-established?', en).answer.startsWith('It was re-established in April 1991. [1]')).toBe(true);
    const ru = [snippet(1, 'Первая биржа Варшавы открылась в 1817 году и работала до войны. Она была восстановлена в апреле 1991 года. В городе много парков.')];
    expect(read('Когда была восстановлена биржа Варшавы?', ru).answer.startsWith('Она была восстановлена в апреле 1991 года. [1]')).toBe(true);
  });

  it('asks a question of few words to be held more fully than one of many', () => {
    expect(togetherNeeded(2)).toBeGreaterThan(togetherNeeded(5));
    expect(togetherNeeded(5)).toBeGreaterThan(togetherNeeded(8));
    expect(togetherNeeded(12)).toBe(togetherNeeded(8));
  });
});

describe('a sentence that leans on the one before', () => {
  it('opens with a pronoun, or holds one in its opening phrase', () => {
    expect(leansOnPrevious('It was re-established in April 1991.')).toBe(true);
    expect(leansOnPrevious('Usually, it is taken to be binary.')).toBe(true);
    expect(leansOnPrevious('However, this is not really the case.')).toBe(true);
    expect(leansOnPrevious('At the time of his death, the empire stretched to the sea.')).toBe(true);
    expect(leansOnPrevious('После его смерти, империя распалась.')).toBe(true);
    expect(leansOnPrevious('In the final years of the era, parents chose new schools.')).toBe(false);
    expect(leansOnPrevious('The statement was in Latin.')).toBe(false);
    expect(leansOnPrevious('In a long opening phrase of many words about this, the claim.')).toBe(false);
  });
});

describe('passage sentences', () => {
  it('reads prose without markup, fields on their own, and table rows with their header', () => {
    const text = [
      '---',
      'title: x',
      '---',
      '# Review',
      '**Date:** 2026-03-30',
      '**Attendees:** [[Lukas Becker]], [[Maya Chen|Maya]]',
      'The outage was **short** and [well handled](https://x.test).',
      '',
      '| Time | Event |',
      '|---|---|',
      '| 08:00 | Certificate expires |',
    ].join('\n');
    expect(proseSentences(text)).toEqual(['Date: 2026-03-30', 'Attendees: Lukas Becker, Maya', 'The outage was short and well handled.', 'Time: 08:00; Event: Certificate expires']);
    expect(plainText('a **b** and _c_ [[d|e]]')).toBe('a b and _c_ e');
    expect(plainText('See [[Internal links#Link to a heading]], [[Internal links#^b15695]], [[#Local]] and [[Doc.pdf#page=3]].')).toBe('See Internal links > Link to a heading, Internal links, Local and Doc.pdf.');
    // A bold span over two sentences leaves no marker on either.
    expect(proseSentences('**I bought it weeks ago. The refund was late.**\nWe refund within 7 days.')).toEqual(['I bought it weeks ago.', 'The refund was late. We refund within 7 days.']);
    // One that asks a question is an FAQ's question: the line after it answers it.
    expect(proseSentences('**I bought it weeks ago. Can I get a refund?**\nWe refund within 7 days.')).toEqual(['We refund within 7 days.']);
    expect(codeSentences('# retries before giving up\nMAX_RETRIES = 5\n}')).toEqual(['retries before giving up', 'MAX_RETRIES = 5']);
  });

  it('drops Obsidian block IDs, at the end of a line or on a line of their own', () => {
    const text = ['You can upload files **up to 50mb** in size to your Publish site. ^publish-media-limit', '', '- Sync: 5 MB', '- Plus: 200 MB', '^limits-list', '', 'Raise it to 2^10 at most.'];
    expect(proseSentences(text.join('\n'))).toEqual(['You can upload files up to 50mb in size to your Publish site.', 'Sync: 5 MB', 'Plus: 200 MB', 'Raise it to 2^10 at most.']);
    // In a code block the caret is code.
    expect(proseSentences('```\nx = y ^mask\n```')).toEqual(['x = y ^mask']);
  });

  it('reads a block quote or a callout apart from the prose around it, without its markers', () => {
    const text = [
      'Servers are hosted in these regions:',
      '',
      '> [!abstract] Sync regions',
      '> **Asia**: Singapore',
      '> **Europe**: Frankfurt, Germany',
      'Prose after the quote.',
      '> [!warning]- Warning',
      '> Early access versions are beta releases.',
      '>> A nested quote.',
    ].join('\n');
    expect(proseSentences(text)).toEqual([
      'Servers are hosted in these regions:',
      'Asia: Singapore',
      'Europe: Frankfurt, Germany',
      'Prose after the quote.',
      'Early access versions are beta releases.',
      'A nested quote.',
    ]);
    // The callout's title heads its sentences, and only its own.
    expect(proseUnits(text).map((u) => u.heading)).toEqual([undefined, 'Sync regions', 'Sync regions', undefined, 'Warning', 'Warning']);
  });

  it('reads an indented code block as code introduced by the sentence before it, but not a list item\'s indented paragraph', () => {
    const text = [
      'This command allows anyone to download from the bucket:',
      '',
      '    gsutil iam ch allUsers:objectViewer gs://bucket',
      '',
      '    gsutil ls gs://bucket',
      '',
      'The site now works.',
      '',
      '- A list item:',
      '',
      '    its second paragraph, indented.',
    ].join('\n');
    const units = proseUnits(text);
    expect(units.map((u) => [u.text, u.code === true, u.described])).toEqual([
      ['This command allows anyone to download from the bucket:', false, undefined],
      ['gsutil iam ch allUsers:objectViewer gs://bucket', true, 'This command allows anyone to download from the bucket:'],
      ['gsutil ls gs://bucket', true, 'This command allows anyone to download from the bucket:'],
      ['The site now works.', false, undefined],
      ['A list item:', false, undefined],
      ['its second paragraph, indented.', false, undefined],
    ]);
    // HTML tags in prose are markup: the words between them are the sentence; inline code keeps them.
    expect(proseSentences('<button class="mod-cta"><a href="https://forum.example/t/1">Vote now</a></button> before the `<div>` closes.')).toEqual(['Vote now before the `<div>` closes.']);
    // A wrapped line of a paragraph is not code, however it is indented.
    expect(proseUnits('A paragraph that wraps\n    onto an indented line.').map((u) => u.code === true)).toEqual([false]);
  });

  it('reads "% command" in a shell session as the command after zsh\'s prompt, and "%" elsewhere as a comment', () => {
    const session = proseUnits('Running this command creates one for me:\n\n    % ./node_modules/.bin/tsc --init\n\nNext step: write a file.');
    expect(session.map((u) => [u.text, u.code === true, u.described])).toEqual([
      ['Running this command creates one for me:', false, undefined],
      ['% ./node_modules/.bin/tsc --init', true, 'Running this command creates one for me:'],
      ['Next step: write a file.', false, undefined],
    ]);
    expect(proseUnits('The model:\n\n```matlab\n% fit the curve first\ny = polyfit(x, data, 2);\n```').filter((u) => u.code).map((u) => u.text)).toEqual(['y = polyfit(x, data, 2);']);
  });

  it('reads a passage cut inside a code block as code up to the fence that closes it', () => {
    const cut = ['   6: panic::main', 'note: run with `RUST_BACKTRACE=full` for a verbose backtrace.', '```', '', 'That is a lot of output!', 'The exact output', 'may differ.'].join('\n');
    expect(proseUnits(cut).map((u) => [u.text, u.code === true])).toEqual([
      ['6: panic::main', true],
      ['note: run with `RUST_BACKTRACE=full` for a verbose backtrace.', true],
      ['That is a lot of output!', false],
      ['The exact output may differ.', false],
    ]);
    // Fences that name their language open blocks: they say where the passage starts.
    expect(startsInFence(['a line of code', '```', 'Prose.', '```rust', 'let x = 5;', '```'], 0)).toBe(true);
    expect(startsInFence(['Prose:', '```rust', 'let x = 5;', '```', 'More prose.', '```'], 0)).toBe(false);
    // A bare fence at the end of a passage opens a block the next passage holds.
    expect(startsInFence(['Prose.', '', 'Run this:', '```'], 0)).toBe(false);
    expect(startsInFence(['Prose.', '', '```', 'npm ls react', '```'], 0)).toBe(false);
  });

  it('reads past HTML comments, link definitions and template directives, and past a caption to the sentence that introduces a block', () => {
    const text = [
      'Traits are listed in [Appendix C][app-c]<!-- ignore --> below.',
      '',
      '<!-- manual-regeneration',
      'cd listings/ch14',
      'cargo build',
      '-->',
      '',
      'Here are the default values for the `dev` and `release` profiles:',
      '',
      '<span class="filename">Filename: Cargo.toml</span>',
      '',
      '```toml',
      '{{#include ../listings/ch14/Cargo.toml}}',
      'opt-level = 0',
      '```',
      '',
      '[app-c]: appendix-03-derivable-traits.md',
      '[dbg]: ../std/macro.dbg.html "dbg!"',
    ].join('\n');
    const intro = 'Here are the default values for the `dev` and `release` profiles:';
    expect(proseUnits(text).map((u) => [u.text, u.code === true, u.described])).toEqual([
      ['Traits are listed in [Appendix C][app-c] below.', false, undefined],
      [intro, false, undefined],
      ['Filename: Cargo.toml', false, undefined],
      ['opt-level = 0', true, intro],
    ]);
    // A template's own code is code: only a site generator's directives are left out.
    expect(proseUnits('Format it:\n\n```jinja\n{{ "{:,}".format(row_count) }}\n```').map((u) => [u.text, u.code === true])).toEqual([
      ['Format it:', false],
      ['{{ "{:,}".format(row_count) }}', true],
    ]);
    expect(withoutComments('a <!-- b --> c <!-- d', false)).toEqual({ text: 'a  c ', open: true });
    expect(withoutComments('still --> after', true)).toEqual({ text: ' after', open: false });
  });

  it('reads a callout\'s title as the heading of its sentences, and leads with the sentence that answers alone', () => {
    const s = [
      snippet(1, 'Canvas lets you lay out notes.\n\n> [!note] The .canvas file extension\n> Obsidian stores your canvas data as `.canvas` files using JSON Canvas.', { title: 'Canvas' }),
      snippet(2, 'You can extend Obsidian to support other file formats using plugins.', { title: 'Accepted file formats' }),
    ];
    const r = read('Which file extension do canvas files have?', s);
    expect(r.outcome).toBe('answered');
    expect(r.answer.startsWith('Obsidian stores your canvas data as `.canvas` files')).toBe(true);
  });
});

describe('property: an answer only quotes its passages', () => {
  const word = fc.constantFrom('relay', 'outage', 'lasted', 'minutes', 'team', 'sync', 'Maya', 'chose', 'SQLite', '47', 'because', 'blocked', 'when', 'Monday', 'key', 'rotates', 'every', 'days', '90', '**bold**', '[[Link]]');
  const sentence = fc.array(word, { minLength: 3, maxLength: 9 }).map((ws) => `${ws.join(' ')}.`);
  const passage = fc.array(sentence, { minLength: 1, maxLength: 5 }).map((ss) => ss.join(' '));
  it('every quoted sentence is a sentence of the snippet it cites, and every word of it is in that snippet', () => {
    fc.assert(
      fc.property(fc.array(passage, { minLength: 1, maxLength: 4 }), fc.array(word, { minLength: 1, maxLength: 6 }), (texts, q) => {
        const snippets = texts.map((t, i) => snippet(i + 1, t));
        const r = read(`How long ${q.join(' ')}?`, snippets);
        if (r.outcome === 'not_found') {
          expect(r.answer).toBe('');
          return;
        }
        const pieces = r.answer.split(/ \[(\d+)\](?: |$)/);
        for (let i = 0; i + 1 < pieces.length; i += 2) {
          const quoted = pieces[i]!;
          const from = snippets.find((s) => s.n === Number(pieces[i + 1]))!;
          expect(proseSentences(from.text).map((x) => (/[.!?]$/.test(x) ? x : `${x}.`))).toContain(quoted);
          const own = new Set(tokenize(from.text).map((t) => t.term));
          for (const t of tokenize(quoted)) expect(own.has(t.term)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('readAnswer: selection weights', () => {
  const notes = [snippet(1, 'The relay outage was reviewed by the whole team. The relay outage lasted 47 minutes.', { title: 'Relay outage review' })];
  const selectionOf = (over: Partial<Record<(typeof SELECTION_FEATURES)[number], number>>) => SELECTION_FEATURES.map((name, k) => over[name] ?? DEFAULT_SELECTION[k]!);

  it('ranks by the weights it is given: the hand-set ones, or others that change the lead', () => {
    const q = 'How long did the relay outage last?';
    expect(readAnswer(q, readerCandidates(notes), { termStats: stats() }).answer).toBe('The relay outage lasted 47 minutes. [1]');
    // Weights that care only for the passage rank and against a value of the asked type lead with the other sentence.
    const odd = selectionOf({ coverage: 0.01, typed: -1, whole: 0, direct: 0 });
    expect(readAnswer(q, readerCandidates(notes), { termStats: stats(), selection: odd }).answer).toMatch(/^The relay outage was reviewed/);
    // Weights of the wrong length are ignored, not misread.
    expect(readAnswer(q, readerCandidates(notes), { termStats: stats(), selection: [1, 2] }).answer).toBe('The relay outage lasted 47 minutes. [1]');
  });

  it('quotes an equal runner-up whatever weights order the sentences: the share is judged on the hand-set scale', () => {
    const pilots = [snippet(1, 'The relay pilot starts on 14 March 2026.', { title: 'Pilot plan' }), snippet(2, 'The relay pilot was first planned to start on 2 March 2026.', { title: 'Pilot history' })];
    const q = 'When does the relay pilot start?';
    const hand = readAnswer(q, readerCandidates(pilots), { termStats: stats() }).answer;
    expect(hand).toContain('14 March 2026');
    expect(hand).toContain('2 March 2026');
    // A weight below zero on what both sentences share (each opens its passage) lowers both scores
    // alike; it changes neither which one leads nor whether the other answers about as well.
    const shifted = readAnswer(q, readerCandidates(pilots), { termStats: stats(), selection: selectionOf({ passage_first: -1 }) }).answer;
    expect(shifted).toBe(hand);
  });

  it('with sentence vectors, lets the cosine alone lead with a sentence that says the fact in other words', () => {
    const attachments = [snippet(1, 'New attachments can be pasted into a note or dragged onto it. You can change the default location under Settings, Files and links.', { title: 'Attachments' })];
    const cosines: Record<string, number> = { 'New attachments can be pasted into a note or dragged onto it.': 0.8, 'You can change the default location under Settings, Files and links.': 0.9 };
    const q = 'Where do new attachments get saved?';
    const lead = (r: ReturnType<typeof readAnswer>) => (r.answer || r.withheld || '').split(' [1]')[0];
    const similarity = (text: string) => cosines[text];
    expect(lead(readAnswer(q, readerCandidates(attachments), { termStats: stats(), similarity }))).toBe('You can change the default location under Settings, Files and links.');
    // Without that weight the sentence holding more of the question's words leads, as it does without vectors.
    expect(lead(readAnswer(q, readerCandidates(attachments), { termStats: stats(), similarity, selection: selectionOf({ sim: 0 }) }))).toBe('New attachments can be pasted into a note or dragged onto it.');
    expect(lead(readAnswer(q, readerCandidates(attachments), { termStats: stats() }))).toBe('New attachments can be pasted into a note or dragged onto it.');
  });

  it('returns each candidate selection features only when asked', () => {
    const q = 'How long did the relay outage last?';
    expect(readAnswer(q, readerCandidates(notes), { termStats: stats() }).candidateRows).toBeUndefined();
    const rows = readAnswer(q, readerCandidates(notes), { termStats: stats(), collectCandidates: true }).candidateRows!;
    expect(rows.map((r) => r.text)).toEqual(['The relay outage was reviewed by the whole team.', 'The relay outage lasted 47 minutes.']);
    for (const r of rows) expect(r.features).toHaveLength(SELECTION_FEATURES.length);
    const typed = SELECTION_FEATURES.indexOf('typed');
    expect(rows.map((r) => r.features[typed])).toEqual([0, 1]);
    const markup = SELECTION_FEATURES.indexOf('markup');
    expect(rows.every((r) => r.features[markup] === 0)).toBe(true);
  });
});

describe('an FAQ written as bold questions', () => {
  const faq = '## Frequently asked questions\n\n**What happens if I refund my service?**\nRefunding a Sync subscription deletes your remote vaults. Your local data stays.\n\n**Can I get a partial refund?**\nWe refund the unused months of a yearly plan.\n';

  it('never quotes the question: the paragraph after it answers it, with its words', () => {
    const units = proseUnits(faq);
    expect(units.map((u) => u.text)).toEqual(['Refunding a Sync subscription deletes your remote vaults.', 'Your local data stays.', 'We refund the unused months of a yearly plan.']);
    expect(units.map((u) => u.answers)).toEqual(['What happens if I refund my service?', 'What happens if I refund my service?', 'Can I get a partial refund?']);
    const r = read('Can I get a partial refund?', [snippet(1, faq, { title: 'Refund policy' })]);
    expect(r.answer).toBe('We refund the unused months of a yearly plan. [1]');
  });
});
