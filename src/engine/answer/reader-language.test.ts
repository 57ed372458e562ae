/**
 * A Russian question in the product, not only in the reader's own tests: the engine reads it with the
 * Russian reader pack (search/lexical.ts readerLanguage), though its search stems it with English's
 * analysis. Read with the English pack, «Напомни» would be a word "your files never mention" and
 * «кафки» a word no file holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../engine.ts';

const VAULT: Record<string, string> = {
  'Выбор очереди сообщений.md': [
    '# Выбор очереди сообщений',
    '',
    'Для сервиса уведомлений используем NATS JetStream, а не Apache Kafka.',
    '',
    '## Почему не Kafka',
    '',
    'Kafka отклонили, потому что её эксплуатация слишком тяжела для команды из трёх человек.',
    '',
  ].join('\n'),
  'Дежурства.md': ['# Дежурства', '', 'Смену дежурного передают по понедельникам в 10:00.', ''].join('\n'),
};

const temp = new TempDirs();
let engine: Engine;

beforeAll(async () => {
  const vault = temp.make('syn-ru-reader-vault-', VAULT);
  // The reader's own outcome: what is read here is the question, not the fitted scorer's bar.
  engine = createEngine({ dataDir: temp.make('syn-ru-reader-data-'), env: {}, config: { gpu: 'off', llmThreads: 1, readerProfile: 'none' } });
  await engine.index([vault]);
});
afterAll(async () => {
  await engine.dispose();
  temp.cleanup();
});

describe('a Russian question', () => {
  it('is read with the Russian pack: its framing left out, a borrowed word read as the notes write it', async () => {
    const a = await engine.answer('Напомни, почему отказались от кафки?');
    const never = a.limits.find((l) => l.code === 'terms_never_mentioned')?.detail ?? '';
    expect(never).not.toContain('Напомни');
    expect(never).toContain('кафки (read as “Kafka”)');
    expect(a.answer).toContain('Kafka отклонили');
  });
});
