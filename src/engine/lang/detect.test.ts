import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAMPLE_QUESTIONS, SAMPLE_VAULT, SHARED_DIR } from '../../../test/helpers/tmp.ts';
import { detectLanguage, embedderLanguages, languageCovered } from './detect.ts';

const lang = (text: string) => detectLanguage(text).lang;

/** The sample vault's questions in Russian (q17 is Russian already), and short queries as people type them. */
const RUSSIAN_QUERIES = [
  'Что означает код ошибки AUR-1102?',
  'Сколько длился мартовский сбой релея и какова была его первопричина?',
  'Почему команда отложила QUIC для трафика между устройствами и релеем?',
  'Сколько инженерного времени зарезервировали на поиск багов перед выходом Kestrel в GA?',
  'Какой тикет отслеживал нестабильные тесты слияния, которые падали только по вторникам?',
  'Какая команда make поднимает релей для разработки на ноутбуке?',
  'Когда проходит еженедельная передача дежурства?',
  'Какую базу данных выбрал руководитель команды синхронизации для хранения на устройстве и когда?',
  'Кто руководит инженером, написавшим документ о стратегии разрешения конфликтов, и какие часы в нём приняли?',
  'Какие ежемесячные расходы на облако одобрил руководитель Лукаса Беккера на 2026 год?',
  'Как часто библиотека, которую поддерживает Надя Волкова, меняет ключ шифрования данных?',
  'На какую дату было назначено начало беты Aurora версии 1.0?',
  'Откуда работает инженер, выбравший WebSockets для транспорта релея, и кто его руководитель?',
  'Каков размер фонда удерживающих бонусов на 2026 год и какое кодовое слово у плана удержания?',
  'Какова цена Aurora за одно рабочее место для клиентов?',
  'Кто главный юрисконсульт Lumen Labs?',
  'Как долго tombstones хранятся на релее до сборки мусора?',
  'Сколько повторных попыток делает движок синхронизации SDK, прежде чем сообщить AUR-503?',
  'Какова степень ветвления дерева Меркла, которое Aurora использует для anti-entropy?',
  'Какую сквозную задержку синхронизации p99 ставит целью обзор архитектуры?',
  'Какой модуль обучения безопасности должны пройти новые сотрудники и к какому сроку?',
  'кто отвечает за релиз',
  'релиз',
  'сбой релея',
  'TLS сертификат',
  'пилот Северный Софт',
  'Привет',
];
const ENGLISH_QUERIES = ['relay port', 'what is BM25?', 'hello', 'Maya Chen', 'SQLite', 'HLC clocks', 'tombstones', 'Kestrel GA', 'make relay-dev', 'AUR-503 retries', 'Merkle tree fan-out', 'python json print tree'];

describe('detectLanguage', () => {
  it("tells the sample vault's English and Russian questions apart", () => {
    const questions = JSON.parse(fs.readFileSync(SAMPLE_QUESTIONS, 'utf8')) as { question: string; kind: string }[];
    expect(questions.some((q) => q.kind === 'russian')).toBe(true);
    for (const q of questions) expect(lang(q.question), q.question).toBe(q.kind === 'russian' ? 'ru' : 'en');
    for (const q of RUSSIAN_QUERIES) expect(lang(q), q).toBe('ru');
  });

  it('leans to English for short Latin queries that tinyld cannot place (or places wrongly)', () => {
    for (const q of ENGLISH_QUERIES) expect(lang(q), q).toBe('en');
    // A sample vault chunk with no English function words and an accented name.
    expect(lang('**Attendees:** [[Maya Chen]] (chair), [[Priya Raman]], [[Tomás Herrera]], [[Nadia Volkova]]')).toBe('en');
    // The price of that lean: plain-ASCII text in another Latin language reads as English when tinyld is unsure.
    expect(lang('waar is het station')).toBe('en');
    expect(detectLanguage('relay port').confidence).toBeLessThan(detectLanguage('When is the weekly on-call handover?').confidence);
  });

  it('reads notes of the sample vault: English prose, Russian minutes', () => {
    const ru = fs.readFileSync(path.join(SAMPLE_VAULT, 'meetings', 'Встреча с партнёрами Северный Софт.md'), 'utf8');
    expect(detectLanguage(ru)).toMatchObject({ lang: 'ru' });
    expect(detectLanguage(ru).confidence).toBeGreaterThan(0.8);
    expect(lang(fs.readFileSync(path.join(SAMPLE_VAULT, 'howto', 'On-call runbook.md'), 'utf8'))).toBe('en');
  });

  it('names other languages through tinyld, within the script of the text', () => {
    expect(lang("Le comité a décidé de reporter la mise en production jusqu'à la fin du mois.")).toBe('fr');
    expect(lang('Die Besprechung wurde auf nächste Woche verschoben, weil der Server ausgefallen ist.')).toBe('de');
    expect(lang('El servidor de retransmisión estuvo caído durante cuarenta minutos por un certificado caducado.')).toBe('es');
    expect(lang('où est la gare')).toBe('fr');
    expect(lang('Het team heeft besloten de release uit te stellen tot volgende maand omdat de server het niet deed.')).toBe('nl');
    expect(lang('хто відповідає за реліз')).toBe('uk');
    expect(lang('Екипът реши да отложи пускането за следващия месец заради срив на сървъра, който продължи цял ден.')).toBe('bg');
    expect(lang('Η ομάδα αποφάσισε να αναβάλει την κυκλοφορία για τον επόμενο μήνα.')).toBe('el');
    expect(lang('הצוות החליט לדחות את השחרור לחודש הבא בגלל תקלה בשרת.')).toBe('he');
    expect(lang('قرر الفريق تأجيل الإصدار إلى الشهر المقبل بسبب عطل في الخادم.')).toBe('ar');
    expect(lang('サーバーの障害のため、チームはリリースを来月に延期することにしました。')).toBe('ja');
    // One Greek letter in English text is not Greek (tinyld alone answers 'fr' here).
    expect(lang('β-sheet opening occurs during pleurotolysin pore formation.')).toBe('en');
  });

  it('goes by the script most of the letters are written in', () => {
    expect(lang('Встреча с партнёрами: обсудили relay, TLS и пилот на 40 планшетах')).toBe('ru');
    expect(lang('Meeting notes: we discussed the relay outage with Северный Софт and agreed on a pilot.')).toBe('en');
  });

  it("answers 'und' for what has no language: empty, numbers, code, symbols, emoji", () => {
    for (const text of ['', '   \n\t', 'a', '42', '12345 67.8 2026-05-01', 'x = f(y[0]) + g(z); if (a && b) { return c; }', '{"id": 1, "n": [1, 2, 3]}', '🚀🔥🎉', '--- *** ///']) {
      expect(detectLanguage(text), JSON.stringify(text)).toEqual({ lang: 'und', confidence: 0 });
    }
    expect(lang('ship it 🚀 today')).toBe('en');
  });

  it('never throws: NUL bytes, lone surrogates, RTL marks, any string', () => {
    expect(lang('\u0000\u0000\u0000')).toBe('und');
    expect(lang('The relay\u0000 was down for\u0000 47 minutes and the team restarted it.')).toBe('en');
    expect(lang('\uD83D релиз отложен \uDE80 до июня')).toBe('ru');
    expect(() => detectLanguage('\u202Eשלום\u202C world \u200F')).not.toThrow();
    expect(detectLanguage(undefined as unknown as string)).toEqual({ lang: 'und', confidence: 0 });
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 300 }).map((c) => String.fromCharCode(...c))), (text) => {
        const got = detectLanguage(text);
        expect(got.lang).toMatch(/^([a-z]{2}|und)$/);
        expect(got.confidence).toBeGreaterThanOrEqual(0);
        expect(got.confidence).toBeLessThanOrEqual(1);
      }),
      { numRuns: 200 },
    );
  });

  it('reads only the start of a huge text: 10 MB costs what 2,000 chars cost', () => {
    const huge = Buffer.alloc(10_000_000, 'The relay stores tombstones for thirty days before garbage collection. ').toString();
    const hugeRu = Buffer.alloc(10_000_000, 'Релей хранит надгробия тридцать дней до сборки мусора. ').toString();
    const started = performance.now();
    expect(lang(huge)).toBe('en');
    expect(lang(hugeRu)).toBe('ru');
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe('languageCovered', () => {
  it("matches a model's languages, '*' for all; unknown text is covered by any model", () => {
    expect(languageCovered('en', ['en'])).toBe(true);
    expect(languageCovered('ru', ['en'])).toBe(false);
    expect(languageCovered('ru', ['ru', 'en'])).toBe(true);
    expect(languageCovered('ru', ['*'])).toBe(true);
    expect(languageCovered('und', ['en'])).toBe(true);
    expect(languageCovered('und', [])).toBe(true);
  });
});

describe('embedderLanguages', () => {
  it('knows the shared models by name: MiniLM is English-only, multilingual-e5 covers all', () => {
    const files = fs.readdirSync(path.join(SHARED_DIR, 'models')).filter((f) => f.endsWith('.gguf'));
    expect(files).toEqual(expect.arrayContaining(['all-MiniLM-L6-v2.Q8_0.gguf', 'multilingual-e5-small.Q4_0.gguf']));
    const byFile = Object.fromEntries(files.map((f) => [f, embedderLanguages(path.basename(f, '.gguf'), f)]));
    expect(byFile['all-MiniLM-L6-v2.Q8_0.gguf']).toEqual(['en']);
    expect(byFile['multilingual-e5-small.Q4_0.gguf']).toEqual(['*']);
  });

  it('reads the table of known multilingual and Russian models, English otherwise', () => {
    for (const name of ['bge-m3', 'LaBSE', 'paraphrase-multilingual-MiniLM-L12-v2', 'distiluse-base-multilingual-cased-v2', 'jina-embeddings-v3', 'nomic-embed-text-v2-moe', 'gte-multilingual-base', 'xlm-roberta-base', 'multilingual-e5-large-instruct']) {
      expect(embedderLanguages(name), name).toEqual(['*']);
    }
    for (const name of ['rubert-tiny2', 'sbert_large_nlu_ru', 'ru-en-RoSBERTa']) expect(embedderLanguages(name), name).toEqual(['ru', 'en']);
    for (const name of ['all-MiniLM-L6-v2', 'bge-small-en-v1.5', 'nomic-embed-text-v1.5', 'gte-small', 'e5-small-v2', 'mxbai-embed-large-v1']) {
      expect(embedderLanguages(name), name).toEqual(['en']);
    }
    // A folder on the way names nothing.
    expect(embedderLanguages('all-MiniLM-L6-v2', '/home/me/ru-models/all-MiniLM-L6-v2.gguf')).toEqual(['en']);
  });

  it("prefers the GGUF's general.languages, then the name, then a multilingual-sized vocabulary", () => {
    expect(embedderLanguages('multilingual-e5-small', undefined, { languages: ['en'] })).toEqual(['en']);
    expect(embedderLanguages('x', undefined, { languages: ['EN', 'rus', 'not a code', 3] })).toEqual(['en', 'ru']);
    expect(embedderLanguages('x', undefined, { languages: 'en,ru' })).toEqual(['en', 'ru']);
    expect(embedderLanguages('x', undefined, { languages: [] })).toEqual(['en']);
    expect(embedderLanguages('my-embedder', undefined, { tokenizerModel: 't5', vocabSize: 250_037 })).toEqual(['*']);
    expect(embedderLanguages('my-embedder', undefined, { tokenizerModel: 'bert', vocabSize: 30_522 })).toEqual(['en']);
  });
});
