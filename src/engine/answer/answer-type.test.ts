import { describe, expect, it } from 'vitest';
import { askedAttribute, askedType, asksLimit, assignsUnit, boundStatement, hasRelativeClause, holdsType, likelyVerbs, measureWords, processWords, questionParts, saysWhere, valuesStated } from './answer-type.ts';

describe('askedType', () => {
  it.each([
    ['How do I run the relay locally?', 'procedure'],
    ['How can I change the default location for new notes?', 'procedure'],
    ['What are the steps to renew the certificates?', 'procedure'],
    ['steps to run the relay on my machine', 'procedure'],
    ['Walk me through how we ship a new release, step by step.', 'procedure'],
    ['I want the relay running on my laptop — what do I need to do?', 'procedure'],
    ["What's the quickest way to rotate the keys?", 'procedure'],
    ['What do you do on Mondays?', 'entity'],
    ['release process?', 'procedure'],
    ["What's the process for onboarding a new engineer?", 'procedure'],
    ['deploy checklist', 'procedure'],
    ['What did the new process change?', 'entity'],
    ['Как мне запустить платформу локально?', 'procedure'],
    ['Wie kann ich einen Tresor teilen?', 'procedure'],
    // "how" with an infinitive (Russian, French, Spanish) or a verb of the first person (German).
    ['Как разделить слайды в презентации?', 'procedure'],
    ['Подскажите, как включить двухфакторную аутентификацию?', 'procedure'],
    ['Wie aktiviere ich die Synchronisierung?', 'procedure'],
    ['Comment activer la synchronisation ?', 'procedure'],
    ['¿Cómo activar la sincronización?', 'procedure'],
    ['Как работает синхронизация?', 'any'],
    ['Как память влияет на скорость?', 'any'],
    ['Wie viele Geräte kann ich verbinden?', 'number'],
    ['What does the comment under the code mean?', 'definition'],
    ['How long do I have to ask for a refund?', 'duration'],
    ['How did the team decide on the protocol?', 'any'],
    ['How long did the March relay outage last?', 'duration'],
    ['How often does the SDK rotate its key?', 'duration'],
    ['At what interval does it rotate its DEK?', 'duration'],
    ['How frequently are backups taken?', 'duration'],
    ['How soon after signing do I get access?', 'date'],
    ['How much engineering time was reserved for bug bashing?', 'duration'],
    ['When is the weekly on-call handover?', 'date'],
    // A leading clause of time says under what condition; the question word after it asks.
    ['When two devices edit the same note, which algorithm merges them?', 'entity'],
    ['When the relay went down, how long did the outage last?', 'duration'],
    ['Когда две копии расходятся, какой алгоритм используется?', 'entity'],
    // The question word after the clause may follow its preposition: "on which line", «в какой папке», "mit welchem Befehl".
    ['When I tick off a repeating task, on which line does the next occurrence go?', 'entity'],
    ['Когда я удаляю заметку, в какой папке она оказывается?', 'entity'],
    ['Wann ich eine Notiz lösche, mit welchem Befehl stelle ich sie wieder her?', 'entity'],
    ['When did the relay go down?', 'date'],
    ['when, roughly, did we launch', 'date'],
    ['Когда была встреча?', 'date'],
    // A measure is a number; a salary or price named in Russian an amount.
    ["what's the default stack size of a spawned thread in Rust", 'number'],
    ['What is the maximum file size?', 'number'],
    ['Какой максимальный размер кучи выставляется по умолчанию?', 'number'],
    ['Which rate plan did we choose?', 'entity'],
    ['какая минимальная зарплата нужна для Blue Card', 'money'],
    ['Какова стоимость подписки?', 'money'],
    // "what date format" asks for a format, not a date.
    ['What date format does a new daily note use?', 'entity'],
    ['What date is the review?', 'date'],
    ['Which city does she work from?', 'place'],
    ['On what date was the beta set to start?', 'date'],
    ['How much did the migration cost?', 'money'],
    ['What is the least I would have to pay to get early access?', 'money'],
    ['What monthly cloud spend did the manager approve?', 'money'],
    ['What amount of money did the grant bring?', 'money'],
    // "Amount" alone asks how much of something, not a price.
    ["The rainforest makes up what amount of Earth's forests?", 'number'],
    ['Who manages the engineer who wrote the record?', 'person'],
    ['Why did the team postpone QUIC?', 'reason'],
    ['What was the root cause of the outage?', 'reason'],
    ['Where does the engineer who chose WebSockets work from?', 'place'],
    ['The engineer who chose WebSockets — which city do they work from?', 'place'],
    ['Tell me who leads the sync team', 'person'],
    ["What's the tombstone retention period on the relay?", 'duration'],
    ['What is the trial period for Sync?', 'duration'],
    ['What is the launch date?', 'date'],
    ["What's the deadline for the audit?", 'date'],
    ['Which day of the week is the standup?', 'date'],
    ['What is the date format of daily notes?', 'entity'],
    ['Which version added the conflict resolution option?', 'number'],
    ['В какой версии появился режим чтения?', 'number'],
    ['Which ticket tracked the flaky tests?', 'entity'],
    ['What does the error code AUR-1102 mean?', 'definition'],
    ['Как долго длился сбой?', 'duration'],
    ['Когда начнётся пилот?', 'date'],
    ['Кто руководит командой синхронизации?', 'person'],
    ['Почему отложили QUIC?', 'reason'],
    ['Где работает Томас?', 'place'],
    ['Сколько стоит лицензия?', 'money'],
    ['Какую базу данных выбрала команда?', 'entity'],
    ['Сколько длился сбой уведомлений?', 'duration'],
    ['Сколько времени занимает сборка?', 'duration'],
    ['Какова была его причина?', 'reason'],
    ['Wie lange bleiben gelöschte Notizen im Papierkorb?', 'duration'],
    ['Wie oft sichert das Programm den Tresor?', 'duration'],
    ['Wann beginnt die Testphase?', 'date'],
    ['Bis wann muss der Antrag gestellt werden?', 'date'],
    ['Wie viele Geräte darf ich verbinden?', 'number'],
    ['Wie viel Prozent Rabatt bekommen Vereine?', 'number'],
    ['Wie viel kostet das Abo im Jahr?', 'money'],
    ['Was kostet die Lizenz?', 'money'],
    ['Wer pflegt das Plugin?', 'person'],
    ['Wo liegen die Vorlagen?', 'place'],
    ['Warum schlägt die Anmeldung fehl?', 'reason'],
    ['Weshalb wurde QUIC verschoben?', 'reason'],
    ['Welche Datenbank hat das Team gewählt?', 'entity'],
    ['Was bedeutet der Fehlercode MR-401?', 'definition'],
    ['Combien de temps les fichiers restent-ils dans la corbeille ?', 'duration'],
    ['Quand commence la phase de test ?', 'date'],
    ['Combien coûte Sync par mois ?', 'money'],
    // The verb after a long subject: the price, not the number of tiers ("three tiers").
    ['How much does the Insider tier of the Catalyst license cost?', 'money'],
    // The price noun after a preposition is not what is asked: the codeword is.
    ['What is the codeword for the salary review?', 'entity'],
    ['What is the monthly per-seat price?', 'money'],
    ['Qui maintient le plugin ?', 'person'],
    ['Pourquoi la synchronisation échoue-t-elle ?', 'reason'],
    ['¿Cuánto tiempo se guardan los archivos?', 'duration'],
    ['¿Cuántos dispositivos puedo conectar?', 'number'],
    ['¿Dónde están las plantillas?', 'place'],
    ['¿Por qué falla la sincronización?', 'reason'],
  ])('%s → %s', (q, type) => {
    expect(askedType(q).type).toBe(type);
  });

  it.each([
    ['You can create tables using vertical bars (`|`) and hyphens (`-`).', true],
    ['You can link to a heading with the `#` sign.', true],
    ['Press `Ctrl+P` to open the command palette.', true],
    ['To change it, open Settings and pick a folder.', true],
    ['You can drag any HTML content from the browser into Obsidian.', false],
    ['Tables are a way to show data in rows.', false],
  ])('reads "%s" as saying how to do something: %s', (sentence, says) => {
    expect(holdsType(sentence, { type: 'procedure' })).toBe(says);
  });

  it.each([
    ['The word count appears in the status bar.', true],
    ['Tomás Herrera — location: Valencia (remote).', true],
    ['Open Settings > Files and links and pick a folder.', true],
    ['Снимки хранятся в папке .obsidian.', true],
    ['Анна Соколова — Роль: руководитель платформенной команды.', false],
    ['The platform team is led by Anna Sokolova.', false],
  ])('reads "%s" as saying where something is: %s', (sentence, says) => {
    expect(saysWhere(sentence)).toBe(says);
  });

  it.each([
    ['release process?', ['process']],
    ["What's the process for onboarding a new engineer?", ['process']],
    ['deploy checklist', ['checklist']],
    ['What did the new process change?', []],
    ['process?', []],
  ])('reads the word that makes "%s" a how-to as its framing: %j', (question, words) => {
    expect(processWords(question)).toEqual(words);
  });

  it('answers a size by a quantity in digits, not by a number word', () => {
    const size = askedType('Какой размер сегмента партиции в Kafka по умолчанию?');
    expect(size).toEqual({ type: 'number', size: true });
    expect(askedType('What is the maximum file size?').size).toBe(true);
    expect(askedType('How big can one file be?').size).toBe(true);
    expect(askedType('How many notes are there?').size).toBeUndefined();
    expect(askedType('Сколько весит архив хранилища?').size).toBe(true);
    // «весь» is "all", not a weight.
    expect(askedType('Какой процент плана выполнил весь отдел?')).toEqual({ type: 'number' });
    expect(holdsType('Партиция состоит из одного или нескольких файлов, которые называются сегменты.', size)).toBe(false);
    expect(holdsType('По умолчанию размер сегмента — 1 ГБ (log.segment.bytes).', size)).toBe(true);
    // Without a size, a number word is a number.
    expect(holdsType('The vault holds one note.', askedType('How many notes are in the vault?'))).toBe(true);
  });

  it('answers a price per year, month or seat by an amount, not by "free"', () => {
    const perYear = askedType('How much does one seat of the commercial license cost per year?');
    expect(perYear).toEqual({ type: 'money', strict: true, rate: true });
    expect(holdsType('Obsidian is 100% free to use and so there is no minimum seat count purchase required.', perYear)).toBe(false);
    expect(holdsType('A commercial license costs $50 per user per year.', perYear)).toBe(true);
    expect(askedType('Сколько стоит подписка в месяц?').rate).toBe(true);
    // Without a rate, "free" is a price.
    const price = askedType('How much does Obsidian cost?');
    expect(price.rate).toBeUndefined();
    expect(holdsType('Obsidian is free for personal use.', price)).toBe(true);
  });

  it('names the counted thing of "how many" / "сколько", so the number must count it', () => {
    expect(askedType('How many retries does the SDK attempt?')).toEqual({ type: 'number', unit: 'retri', strict: true });
    // A version is a number the question names: a quote without one states none.
    expect(askedType('Which version added the conflict resolution option?')).toEqual({ type: 'number', strict: true });
    expect(holdsType('Under Conflict resolution, choose your preferred option.', { type: 'number', strict: true })).toBe(false);
    expect(holdsType('Conflict resolution options arrived in Obsidian 1.9.7.', { type: 'number', strict: true })).toBe(true);
    expect(askedType('На скольких планшетах запустят пилот?').unit).toMatch(/^планш/);
    expect(askedType('Wie viele Geräte darf ich verbinden?').unit).toMatch(/^ger/);
    expect(holdsType('Mit einem Konto lassen sich bis zu fünf Geräte verbinden.', askedType('Wie viele Geräte darf ich verbinden?'))).toBe(true);
    expect(holdsType('Das Abo kostet 8 € im Monat.', askedType('Wie viele Geräte darf ich verbinden?'))).toBe(false);
    // "Wie viel Prozent" names the form of the answer ("40 %"), not a counted thing.
    expect(askedType('Wie viel Prozent Rabatt bekommen Vereine?').unit).toBeUndefined();
    expect(holdsType('const MAX_RETRIES = 5;', askedType('How many retries does the SDK attempt?'))).toBe(true);
    expect(holdsType('The SDK retries with backoff after 5 seconds of silence and 3 failures.', { type: 'number', unit: 'week' })).toBe(false);
    expect(holdsType('Партнёр запустит пилот на 1200 полевых планшетах.', askedType('На скольких планшетах запустят пилот?'))).toBe(true);
    // "сколько раз" counts times, "сколько стоит" has a verb after it: no counted noun.
    expect(askedType('Сколько раз сервис повторяет отправку?')).toEqual({ type: 'number' });
    expect(askedType('Сколько курьеров не получили уведомления?').unit).toBe('курьер');
  });
});

describe('strict value types', () => {
  it('marks a place question that names the kind of place as answered only by a place', () => {
    expect(askedType('Which city does the engineer work out of?')).toEqual({ type: 'place', strict: true });
    expect(askedType('В каком городе работает Анна?')).toEqual({ type: 'place', strict: true });
    expect(askedType('Where does the engineer work?')).toEqual({ type: 'place' });
    expect(holdsType('Tomás Herrera — City: Valencia.', { type: 'place' })).toBe(true);
    expect(holdsType('Анна Соколова — Город: Казань.', { type: 'place' })).toBe(true);
    expect(holdsType('Tomás Herrera — Reports to: Maya Chen.', { type: 'place' })).toBe(false);
    expect(holdsType('Office: remote', { type: 'place' })).toBe(false);
  });

  it('marks a price, and a date question that names its calendar value, as answered only by such a value', () => {
    expect(askedType('How much does a Catalyst license cost?')).toEqual({ type: 'money', strict: true });
    expect(askedType('Wie viel kostet ein Abo von Sync Standard im Monat?')).toEqual({ type: 'money', strict: true });
    expect(askedType('In what year was the Interstate Highway System created?')).toEqual({ type: 'date', strict: true });
    expect(askedType('В каком году основана компания?')).toEqual({ type: 'date', strict: true });
    expect(askedType('In welchem Jahr ist Obsidian erschienen?')).toEqual({ type: 'date', strict: true });
    // "When" is answered by a condition as often as by a date: "when the immune system is less active".
    expect(askedType('When does immunodeficiency occur?')).toEqual({ type: 'date' });
    expect(askedType('How many of them passed?').strict).toBeUndefined();
    expect(holdsType('Six-time Grammy winner Lady Gaga sang the anthem.', askedType('How many Grammys has Lady Gaga won?'))).toBe(true);
    expect(holdsType('None of the original treaties mention fundamental rights.', askedType('How many original treaties protected fundamental rights?'))).toBe(true);
  });

  it('reads a price of none as a price', () => {
    expect(holdsType('Obsidian is free for personal use.', { type: 'money' })).toBe(true);
    expect(holdsType('Obsidian ist für den privaten Gebrauch kostenlos.', { type: 'money' })).toBe(true);
    expect(holdsType('Obsidian бесплатен для личного использования.', { type: 'money' })).toBe(true);
    expect(holdsType('Sync Standard: 1 Monat; Sync Plus: 12 Monate.', { type: 'money' })).toBe(false);
    expect(holdsType('Feel-free templates are in the lock-free folder.', { type: 'money' })).toBe(false);
  });

  it.each([
    'When the Interstate Highway System was created in the 1950s, Interstate 5 was built.',
    'The movement began in the mid-18th century within the Church of England.',
    'Their descendants used French names well into the nineteenth century.',
    'Карта составлена в XIX веке.',
    'Die Burg stammt aus dem 12. Jahrhundert.',
    'Caesar crossed the Rubicon in 49 BC.',
    'Rapid warming began about 13,000 BP.',
    'Europe began to warm up from 22,000 years ago onward.',
    'In 1186, Temüjin was elected khan of the Mongols.',
    'She gave birth to a son, Jochi (1185–1226), nine months later.',
  ])('finds a historical date in "%s"', (sentence) => {
    expect(holdsType(sentence, { type: 'date' })).toBe(true);
  });

  it('takes no count or amount for an early year', () => {
    expect(holdsType('The library holds 1200 maps.', { type: 'date' })).toBe(false);
    expect(holdsType('The ad ran on page 12.', { type: 'date' })).toBe(false);
  });
});

describe('holdsType', () => {
  it('reads a number word only as a word of its own, not the end of another ("iPhone", «внутри»)', () => {
    expect(holdsType('The app brings note-taking to your iPhone and iPad.', { type: 'number' })).toBe(false);
    expect(holdsType('Данные хранятся внутри хранилища.', { type: 'number' })).toBe(false);
    expect(holdsType('Someone left it alone.', { type: 'number' })).toBe(false);
    expect(holdsType('The app runs on one phone and three tablets.', { type: 'number' })).toBe(true);
    expect(holdsType('Осталось три дня.', { type: 'duration' })).toBe(true);
  });

  it('finds values of each type in English and Russian', () => {
    expect(holdsType('The outage lasted 47 minutes.', { type: 'duration' })).toBe(true);
    expect(holdsType('Tombstones are kept for 45 days.', { type: 'duration' })).toBe(true);
    expect(holdsType('Сбой длился 47 минут.', { type: 'duration' })).toBe(true);
    expect(holdsType('The relay was slow.', { type: 'duration' })).toBe(false);
    // "How do I…" is answered by steps: a list item, a command, what introduces them, an instruction that says where.
    const how = { type: 'procedure' } as const;
    expect(holdsType('Open Settings.', how, { item: true })).toBe(true);
    expect(holdsType('make relay-dev', how, { code: true })).toBe(true);
    expect(holdsType('To invite a user to share a remote vault:', how)).toBe(true);
    expect(holdsType('You can change it under Settings → Files and links.', how)).toBe(true);
    expect(holdsType('To use another port, set `AURORA_RELAY_PORT`.', how)).toBe(true);
    expect(holdsType('The relay was rewritten in Go last year.', how)).toBe(false);
    // A sentence that merely names something in backticks gives no instruction.
    expect(holdsType('All code lives in a single repository, `lumen/aurora`.', how)).toBe(false);
    // "one of them" picks out a thing; it counts nothing.
    expect(holdsType('If you missed early bird pricing for one of them, you may still apply.', { type: 'number' })).toBe(false);
    expect(holdsType('Each license covers one device.', { type: 'number' })).toBe(true);
    expect(holdsType('Handover is every Monday at 10:00.', { type: 'date' })).toBe(true);
    expect(holdsType('Пилот начнётся 1 июня 2026 года.', { type: 'date' })).toBe(true);
    expect(holdsType('A budget of $18,500 per month.', { type: 'money' })).toBe(true);
    expect(holdsType('Бюджет 240 000 руб.', { type: 'money' })).toBe(true);
    expect(holdsType('Twenty phones were tested.', { type: 'money' })).toBe(false);
    expect(holdsType('The decision was made by Maya Chen.', { type: 'person' })).toBe(true);
    expect(holdsType('Решение принял Томас Эррера.', { type: 'person' })).toBe(true);
    expect(holdsType('The networks block outbound UDP, so QUIC fell back to TCP.', { type: 'reason' })).toBe(true);
    expect(holdsType('Отложили, потому что UDP заблокирован.', { type: 'reason' })).toBe(true);
    expect(holdsType('QUIC looked attractive.', { type: 'reason' })).toBe(false);
    expect(holdsType('Tomás works from Valencia.', { type: 'place' })).toBe(true);
  });

  it('takes a role for the person a "who" question asks, as notes often name one', () => {
    const who = askedType('Who may invite new people to a shared vault?');
    expect(holdsType('All collaborators receive the same permissions, with one exception: only the vault owner can invite collaborators.', who)).toBe(true);
    expect(holdsType('Ask your manager before you buy a license.', who)).toBe(true);
    expect(holdsType('Отпуск согласует руководитель отдела.', askedType('Кто согласует отпуск?'))).toBe(true);
    // A user of the app, or a word that only ends like a role, is nobody in particular.
    expect(holdsType('Enter the email of the user you want to invite.', who)).toBe(false);
    expect(holdsType('The sync team ships weekly leaderboards.', who)).toBe(false);
  });

  it('finds German durations, dates, numbers, amounts and reasons', () => {
    expect(holdsType('Gelöschte Notizen bleiben 30 Tage im Papierkorb.', { type: 'duration' })).toBe(true);
    expect(holdsType('Eine Erstattung ist innerhalb von 7 Tagen möglich.', { type: 'duration' })).toBe(true);
    expect(holdsType('Das Abo läuft 12 Monate.', { type: 'duration' })).toBe(true);
    expect(holdsType('Der Tresor wird alle 5 Minuten gesichert.', { type: 'duration' })).toBe(true);
    expect(holdsType('Die Sicherung läuft täglich.', { type: 'duration' })).toBe(true);
    expect(holdsType('Die Sicherung ist langsam.', { type: 'duration' })).toBe(false);
    expect(holdsType('Die Testphase beginnt am 3. März 2026.', { type: 'date' })).toBe(true);
    expect(holdsType('Der Antrag wird innerhalb von 3 Werktagen geprüft.', { type: 'date' })).toBe(true);
    expect(holdsType('Die Übergabe ist jeden Montag.', { type: 'date' })).toBe(true);
    expect(holdsType('Die Übergabe ist wichtig.', { type: 'date' })).toBe(false);
    expect(holdsType('Studenten erhalten 40 % Rabatt.', { type: 'number' })).toBe(true);
    expect(holdsType('Es gibt zwölf Vorlagen.', { type: 'number' })).toBe(true);
    expect(holdsType('Das ist ein Test.', { type: 'number' })).toBe(false);
    expect(holdsType('Sync kostet 4 € pro Monat.', { type: 'money' })).toBe(true);
    expect(holdsType('Der Preis liegt bei 96 EUR.', { type: 'money' })).toBe(true);
    expect(holdsType('Sync ist günstig.', { type: 'money' })).toBe(false);
    expect(holdsType('Die Anmeldung schlägt fehl, weil der Server nicht erreichbar ist.', { type: 'reason' })).toBe(true);
    expect(holdsType('QUIC wurde wegen blockiertem UDP verschoben.', { type: 'reason' })).toBe(true);
    expect(holdsType('QUIC sah vielversprechend aus.', { type: 'reason' })).toBe(false);
  });

  it('finds French and Spanish durations, dates and reasons, and no month in an English name', () => {
    expect(holdsType('Les fichiers restent 30 jours dans la corbeille.', { type: 'duration' })).toBe(true);
    expect(holdsType('Los archivos se guardan 30 días.', { type: 'duration' })).toBe(true);
    expect(holdsType('La phase commence le 3 mars 2026.', { type: 'date' })).toBe(true);
    expect(holdsType('La prueba empieza el 3 de marzo.', { type: 'date' })).toBe(true);
    expect(holdsType('Curiosity landed on Mars.', { type: 'date' })).toBe(false);
    expect(holdsType('Elle échoue parce que le serveur est hors ligne.', { type: 'reason' })).toBe(true);
    expect(holdsType('He bought a car.', { type: 'reason' })).toBe(false);
  });
});

describe('Chinese and Japanese', () => {
  it('reads the kind of fact a question asks', () => {
    const cases: [string, string][] = [
      ['购买后多久可以退款？', 'duration'],
      ['版本历史保留几个月？', 'duration'],
      ['备份多久一次？', 'duration'],
      ['订阅多少钱一个月？', 'money'],
      ['顺达物流一共有多少名调度员？', 'number'],
      ['试点什么时候开始？', 'date'],
      ['下次会议是几号？', 'date'],
      ['谁负责告警？', 'person'],
      ['为什么没有选择 Kafka？', 'reason'],
      ['备份存放在哪里？', 'place'],
      ['用的是哪种消息队列？', 'entity'],
      ['購入後何日以内に返金できますか？', 'duration'],
      ['料金はいくらですか？', 'money'],
      ['いつリリースされましたか？', 'date'],
      ['サーバーはどこにありますか？', 'place'],
      ['なぜ失敗しましたか？', 'reason'],
    ];
    for (const [q, type] of cases) expect([q, askedType(q).type]).toEqual([q, type]);
  });

  it('finds values written without spaces: "七天内", "7日以内", "0.035 元", "2026 年 5 月 18 日"', () => {
    expect(holdsType('购买后七天内，我们提供全额退款。', { type: 'duration' })).toBe(true);
    expect(holdsType('購入後7日以内であれば全額返金いたします。', { type: 'duration' })).toBe(true);
    expect(holdsType('版本历史保留十二个月。', { type: 'duration' })).toBe(true);
    expect(holdsType('商业许可证不可退款。', { type: 'duration' })).toBe(false);
    expect(holdsType('新的供应商每条短信 0.035 元。', { type: 'money' })).toBe(true);
    expect(holdsType('试点从 2026 年 5 月 18 日开始。', { type: 'date' })).toBe(true);
    expect(holdsType('他们的调度员一共有 40 人。', { type: 'number' })).toBe(true);
    expect(holdsType('统一的一些规则。', { type: 'number' })).toBe(false);
    expect(holdsType('Kafka 对于三个人的团队来说运维成本太高。', { type: 'reason' })).toBe(true);
  });
});

describe('Hindi, Thai and Arabic', () => {
  it('reads the kind of fact a question asks, and durations after a number', () => {
    const cases: [string, string][] = [
      ['रिफंड के लिए कितने दिन हैं?', 'duration'],
      ['बैकअप कब शुरू होता है?', 'date'],
      ['परियोजना का प्रमुख कौन है?', 'person'],
      ['काफ्का क्यों नहीं चुना गया?', 'reason'],
      ['सर्वर कहाँ है?', 'place'],
      ['कितने लोग हैं?', 'number'],
      ['คืนเงินได้ภายในกี่วัน', 'duration'],
      ['ใครเป็นเจ้าของโครงการ', 'person'],
      ['ทำไมไม่เลือก Kafka', 'reason'],
      ['เซิร์ฟเวอร์อยู่ที่ไหน', 'place'],
      ['ราคาเท่าไร', 'money'],
    ];
    for (const [q, type] of cases) expect([q, askedType(q).type]).toEqual([q, type]);
    expect(holdsType('खरीद के 7 दिनों के भीतर पूरा रिफंड मिलता है।', { type: 'duration' })).toBe(true);
    expect(holdsType('เราคืนเงินเต็มจำนวนภายใน 7 วัน', { type: 'duration' })).toBe(true);
    expect(holdsType('व्यावसायिक लाइसेंस का रिफंड नहीं होता।', { type: 'duration' })).toBe(false);
    for (const [q, type] of [
      ['كم يوما لدي لطلب استرداد المال؟', 'duration'],
      ['متى يبدأ المشروع؟', 'date'],
      ['من هو مدير المشروع؟', 'person'],
      ['من أين يأتي الخادم؟', 'place'],
      ['لماذا لم نختر Kafka؟', 'reason'],
      ['كم عدد المستخدمين؟', 'number'],
      ['كم سعر الاشتراك؟', 'money'],
      ['ما هي قاعدة البيانات المستخدمة؟', 'entity'],
    ] as const) expect([q, askedType(q).type]).toEqual([q, type]);
    expect(holdsType('يمكنك استرداد المال خلال 7 أيام من الشراء.', { type: 'duration' })).toBe(true);
    for (const [q, type] of [
      ['유럽 지역은 어디에 있습니까?', 'place'],
      ['플러스 요금제는 버전 기록을 얼마나 보관합니까?', 'duration'],
      ['요금은 얼마입니까?', 'money'],
      ['언제 시작합니까?', 'date'],
      ['누가 결정했습니까?', 'person'],
      ['왜 Kafka를 선택하지 않았습니까?', 'reason'],
      ['사용자는 몇 명입니까?', 'number'],
      ['어떤 데이터베이스를 사용합니까?', 'entity'],
    ] as const) expect([q, askedType(q).type]).toEqual([q, type]);
    expect(holdsType('플러스 요금제에서는 버전 기록을 12개월 동안 보관합니다.', { type: 'duration' })).toBe(true);
    // No capitals tell a name: any sentence of such a script may hold the person asked.
    expect(holdsType('परियोजना की प्रमुख प्रिया हैं।', { type: 'person' })).toBe(true);
  });
});

describe('questionParts', () => {
  it('splits the same asked of two things after the same preposition, never a comparison', () => {
    expect(questionParts('What are the default opt-level values for the dev profile and for the release profile?')).toEqual(['What are the default opt-level values for the dev profile', 'What are the default opt-level values for the release profile?']);
    expect(questionParts('Какой уровень оптимизации для dev и для release?')).toEqual(['Какой уровень оптимизации для dev', 'Какой уровень оптимизации для release?']);
    expect(questionParts('Where is the config stored on Windows and on macOS?')).toEqual(['Where is the config stored on Windows', 'Where is the config stored on macOS?']);
    expect(questionParts('What is the difference between a note in the vault and in a canvas?')).toEqual(['What is the difference between a note in the vault and in a canvas?']);
    expect(questionParts('Чем отличается заметка в хранилище и в холсте?')).toEqual(['Чем отличается заметка в хранилище и в холсте?']);
    expect(questionParts('Which ticket tracked the tests and the builds?')).toEqual(['Which ticket tracked the tests and the builds?']);
  });

  it('splits a question of two asks, each with its own question word', () => {
    expect(questionParts('How long did the outage last, and what was its root cause?')).toEqual(['How long did the outage last', 'what was its root cause?']);
    expect(questionParts('На скольких планшетах запустят пилот и когда он начнётся?')).toEqual(['На скольких планшетах запустят пилот', 'когда он начнётся?']);
    expect(questionParts('Which ticket tracked the tests and the builds?')).toEqual(['Which ticket tracked the tests and the builds?']);
    // A second ask of yes or no: "and is it…", «и хранятся ли…», "und ob…".
    expect(questionParts('How long are snapshots kept, and are they stored in the vault?')).toEqual(['How long are snapshots kept', 'are they stored in the vault?']);
    expect(questionParts('Сколько дней держатся снимки и хранятся ли они в хранилище?')).toEqual(['Сколько дней держатся снимки', 'хранятся ли они в хранилище?']);
    expect(questionParts('Wie lange bleiben Snapshots und ob sie synchronisiert werden')).toEqual(['Wie lange bleiben Snapshots', 'ob sie synchronisiert werden']);
    expect(questionParts('Is the relay down and are the tests green')).toEqual(['Is the relay down and are the tests green']);
    // Russian question words in any case form, after a preposition too.
    expect(questionParts('Сколько длился сбой и какова была его причина?')).toEqual(['Сколько длился сбой', 'какова была его причина?']);
    expect(questionParts('Какую очередь выбрала Анна и в какой день?')).toEqual(['Какую очередь выбрала Анна', 'в какой день?']);
    expect(questionParts('Какие сервисы и базы данных использует команда?')).toEqual(['Какие сервисы и базы данных использует команда?']);
    expect(questionParts('Wie oft wird gesichert, und wie lange bleiben die Sicherungen?')).toEqual(['Wie oft wird gesichert', 'wie lange bleiben die Sicherungen?']);
    expect(questionParts('Welche Dienste und Datenbanken nutzt das Team?')).toEqual(['Welche Dienste und Datenbanken nutzt das Team?']);
    // A second ask that opens with a preposition before its question word.
    expect(questionParts('Welche Firma betreibt die Server, und in welcher Stadt steht der Standort?')).toEqual(['Welche Firma betreibt die Server', 'in welcher Stadt steht der Standort?']);
    expect(questionParts('Who founded the company, and in which year did it open?')).toEqual(['Who founded the company', 'in which year did it open?']);
    expect(questionParts('Who wrote the plan and with whom did she review it?')).toEqual(['Who wrote the plan', 'with whom did she review it?']);
    expect(questionParts('Which notes link to the plan and to the budget?')).toEqual(['Which notes link to the plan and to the budget?']);
  });

  it('splits a second ask that leaves out its question word and repeats the first one\'s noun', () => {
    expect(questionParts('What is the largest file Sync Plus will sync, and the largest file I can upload to a Publish site?')).toEqual(['What is the largest file Sync Plus will sync', 'What is the largest file I can upload to a Publish site?']);
    expect(questionParts('What was the size of the army and the size of the navy?')).toEqual(['What was the size of the army', 'What was the size of the navy?']);
    // "and the car" repeats no noun of the first ask: one question about two things.
    expect(questionParts('Who is the owner of the house, and the car?')).toEqual(['Who is the owner of the house, and the car?']);
    expect(questionParts('What is the capital of the region and the country?')).toEqual(['What is the capital of the region and the country?']);
  });
});

describe('hasRelativeClause', () => {
  it('finds a relative clause after the first word, in English and Russian', () => {
    expect(hasRelativeClause('How often does the library that Nadia Volkova maintains rotate its key?')).toBe(true);
    expect(hasRelativeClause('Where does the engineer who chose WebSockets work?')).toBe(true);
    expect(hasRelativeClause('Кто руководит разработчиком, который написал сервис уведомлений?')).toBe(true);
    expect(hasRelativeClause('Who leads the platform team?')).toBe(false);
    expect(hasRelativeClause('Where is the relay hosted?')).toBe(false);
    expect(hasRelativeClause('Где хранятся треки курьеров?')).toBe(false);
    expect(hasRelativeClause('Wie oft rotiert die Bibliothek, die Nadia Volkova pflegt, ihren Schlüssel?')).toBe(true);
    expect(hasRelativeClause('Wo liegt die Datei der Vorlage?')).toBe(false);
  });
});

describe('askedAttribute', () => {
  it('names what is asked of the subject, never its verbs', () => {
    expect(askedAttribute("What is Aurora's per-seat price for customers?")).toEqual(['per', 'seat', 'price']);
    expect(askedAttribute('Who is the general counsel of Lumen Labs?')).toEqual(['general', 'counsel']);
    expect(askedAttribute('How many weeks of parental leave do employees get?')).toEqual(['parental', 'leave']);
    expect(askedAttribute('Why did the team postpone QUIC?')).toEqual([]);
    // A word that names the answer's form is no attribute: notes say "known as", not "nickname".
    expect(askedAttribute('What is the nickname for the Delta in the Netherlands?')).toEqual([]);
    expect(askedAttribute('What is the percentage of households with children?')).toEqual([]);
    expect(askedAttribute('Какое прозвище у дельты Рейна?')).toEqual([]);
    expect(askedAttribute('Каково название проекта?')).toEqual(['проекта']);
    expect(askedAttribute('Сколько стоит подписка на сервис для одного курьера?')).toEqual(['подписка']);
    expect(askedAttribute('Сколько недель длится испытательный срок для новых сотрудников?')).toEqual(['испытательный', 'срок']);
    expect(askedAttribute('Какой уровень доступности обещан заказчикам?')).toEqual(['уровень', 'доступности']);
    expect(askedAttribute('Кто главный бухгалтер компании?')).toEqual(['главный', 'бухгалтер']);
    // Verbs are paraphrased in notes: never the attribute.
    expect(askedAttribute('Что означает код ошибки MR-401?')).toEqual(['код']);
    expect(askedAttribute('Кто утвердил расходы на облако?')).toEqual(['расходы']);
    // German: its nouns, written with a capital; adjectives and verbs are paraphrased.
    expect(askedAttribute('Was ist der Preis von Sync?')).toEqual(['Preis']);
    expect(askedAttribute('Wie hoch ist die monatliche Gebühr für Publish?')).toEqual(['Gebühr']);
    expect(askedAttribute('Wer ist die Geschäftsführerin der Firma?')).toEqual(['Geschäftsführerin']);
    expect(askedAttribute('Wie viele Wochen Elternzeit bekommen Mitarbeiter?')).toEqual(['Elternzeit']);
    expect(askedAttribute('Was ist der Name des Plugins?')).toEqual([]);
    expect(askedAttribute('Wer pflegt das Plugin?')).toEqual([]);
  });
});

describe('likelyVerbs', () => {
  it('finds the verbs of a question (a paraphrase, not a missing subject), never its nouns', () => {
    expect([...likelyVerbs('Why did the team postpone QUIC for traffic between devices?')]).toEqual(['postpone']);
    expect(likelyVerbs('Where does the engineer who chose WebSockets work from?').has('chose')).toBe(true);
    expect(likelyVerbs('Who is the general counsel of Lumen Labs?').has('counsel')).toBe(false);
    expect(likelyVerbs('Why did the team postpone QUIC for traffic between devices?').has('traffic')).toBe(false);
  });

  it.each([
    ['I want to get the relay running locally', 'want', true],
    ["What's the start date (whatever we're calling it internally)?", 'calling', true],
    ['How much eng time got earmarked for bug bashing?', 'earmarked', true],
    // Only the word right after the pronoun: the subject of "set up" is not a verb.
    ['how do i set up SSO on the dashboard', 'sso', false],
    ['how do i set up SSO on the dashboard', 'set', true],
    ['How much eng time got earmarked for bug bashing?', 'bashing', false],
    ['Where did you file the report?', 'report', false],
  ])('after a subject pronoun or a passive "got": %s → %s is a verb: %s', (question, word, verb) => {
    expect(likelyVerbs(question).has(word)).toBe(verb);
    expect(likelyVerbs('На скольких планшетах запустят пилот и когда он начнётся?').has('начнется')).toBe(true);
    expect(likelyVerbs('На скольких планшетах запустят пилот?').has('планшетах')).toBe(false);
    // Nouns with verb-like endings stay nouns.
    expect([...likelyVerbs('Какой бюджет выделили на маршрут отдела, где работает Павел?')]).toEqual(['выделили', 'работает']);
    // German capitalises every noun: the lower-case words are the verbs (and adjectives) notes paraphrase.
    const de = likelyVerbs('Wie lange kann ich mein Geld zurückverlangen?', 'de');
    expect(de.has('zurückverlangen')).toBe(true);
    expect(de.has('geld')).toBe(false);
  });
});

describe('asksLimit', () => {
  it('tells a limit someone may reach from a superlative about the world', () => {
    expect(asksLimit('What is the largest attachment I can email to Obsidian support?')).toBe(true);
    expect(asksLimit('What is the biggest single file I can sync on the Standard plan?')).toBe(true);
    expect(asksLimit('Какой максимальный размер вложения можно отправить в поддержку?')).toBe(true);
    expect(asksLimit('Wie groß ist die größte Datei, die ich hochladen kann?')).toBe(true);
    expect(asksLimit('What is the largest city of Poland?')).toBe(false);
    expect(asksLimit('What is the longest time that a teaching certificate is good for?')).toBe(false);
    expect(asksLimit('What must a public school teacher have, at a minimum?')).toBe(false);
  });
});

describe('boundStatement', () => {
  it('reads "percent" as stated by a number with the sign', () => {
    const percent = boundStatement('Prozent')!;
    expect(percent.test('Beide gewähren dir 40 % Rabatt.')).toBe(true);
    expect(percent.test('a 40% discount')).toBe(true);
    expect(percent.test('printf("%d", n)')).toBe(false);
    expect(boundStatement('процентов')!.test('скидка 40%')).toBe(true);
  });

  it('reads a superlative the question asks as the bound a note states with a number', () => {
    const upper = boundStatement('biggest')!;
    expect(upper.test('The Standard plan allows syncing files up to 5 MB.')).toBe(true);
    expect(upper.test('Publish hosts media with a limit of 4 GB per site.')).toBe(true);
    expect(boundStatement('largest')!.test('For the Standard plan the limit is 5 MB.')).toBe(true);
    // A bound word without a number states no bound.
    expect(upper.test('It is up to you which files you sync.')).toBe(false);
    expect(upper.test('The biggest change this year is the new editor.')).toBe(false);
    const lower = boundStatement('oldest')!;
    expect(lower.test('It supports Android versions 5.1 and above.')).toBe(true);
    expect(lower.test('Requires Android 7.1 or higher.')).toBe(true);
    expect(boundStatement('minimum')!.test('You need at least 8 GB of memory.')).toBe(true);
    expect(lower.test('Versions are numbered from newest to oldest.')).toBe(false);
    expect(boundStatement('максимальный')!.test('Можно загрузить файлы не более 20 МБ.')).toBe(true);
    expect(boundStatement('mindestens')!.test('Die App läuft ab Android 7 oder höher.')).toBe(true);
    expect(boundStatement('file')).toBeUndefined();
    // A question that asks a capacity ("how much … can … hold") is answered by a bound too.
    expect(boundStatement('hold', 'How much media in total can one Publish site hold?')!.test('Publish hosts media with a limit of 4 GB per site.')).toBe(true);
    expect(boundStatement('hold', 'Who will hold the meeting?')).toBeUndefined();
    expect(boundStatement('hold')).toBeUndefined();
    expect(boundStatement('most')).toBeUndefined();
  });
});

describe('measureWords', () => {
  it('finds the adjective after "how" that names the measure asked, not one an answer repeats', () => {
    expect(measureWords('How big a discount on Sync and Publish can a student get?')).toEqual(['big']);
    expect(measureWords('Wie groß ist der Rabatt für Studenten?')).toEqual(['groß']);
    expect(measureWords('How old was Peyton Manning in 2016?')).toEqual([]);
    expect(measureWords('Which big files does Sync skip?')).toEqual([]);
  });
});

describe('assignsUnit', () => {
  it('finds the line that sets the counted thing, not the lines that use it', () => {
    expect(assignsUnit('export const MAX_RETRIES = 5;', 'retri')).toBe(true);
    expect(assignsUnit('retentionDays := 45', 'day')).toBe(true);
    expect(assignsUnit('  "maxRetries": 3,', 'retri')).toBe(true);
    expect(assignsUnit('for (let attempt = 0; attempt <= MAX_RETRIES; attempt++) {', 'retri')).toBe(false);
    expect(assignsUnit('if (retries == 5) return;', 'retri')).toBe(false);
  });
});

describe('valuesStated', () => {
  it.each([
    ['In between each cycle, we spend two weeks cooling down.', 'duration', 1],
    ['Cycles last six weeks, then two weeks of cooldown.', 'duration', 2],
    ['Снимки хранятся 30 дней, а версии — один год.', 'duration', 2],
    ['Standard costs $4 per month and Plus $8 per month.', 'money', 2],
    ['opt-level = 3', 'number', 1],
    ['40% of users are on Windows.', 'number', 1],
    ['服务每天发送 120 条消息，费用 0.035 元。', 'number', 2],
    ['Maya chose SQLite.', 'person', undefined],
    ['No number here.', 'number', 0],
  ] as const)('%s (%s): %s', (sentence, type, count) => {
    expect(valuesStated(sentence, type)).toBe(count);
  });
});
