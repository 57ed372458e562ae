/**
 * The lexical list on a thread of its own (see lexical-thread.ts): a second connection to the store,
 * a read handle only (it never writes; WAL lets it read the last committed state while the
 * engine's connection writes), answering searchLexical requests one at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openReadConnection, type ReadConnection } from '../store/connection.ts';
import { searchLexical } from './lexical.ts';
import type { LexicalRequest, LexicalReply } from './lexical-thread.ts';

const port = parentPort;
if (!port) throw new Error('lexical-worker.ts runs as a worker thread only');

const { file, mmapBytes } = workerData as { file: string; mmapBytes?: number };
let db: ReadConnection;
try {
  db = openReadConnection(file, mmapBytes);
  port.postMessage({ ready: true } satisfies LexicalReply);
} catch (error) {
  port.postMessage({ ready: false, error: (error as Error).message } satisfies LexicalReply);
  process.exit(1);
}

port.on('message', (request: LexicalRequest) => {
  try {
    const t = performance.now();
    const result = searchLexical(db, request.query, request.options);
    port.postMessage({ id: request.id, result, ms: Math.round((performance.now() - t) * 100) / 100 } satisfies LexicalReply);
  } catch (error) {
    // The engine runs the request again on its own connection, which throws the same error there.
    port.postMessage({ id: request.id, error: (error as Error).message } satisfies LexicalReply);
  }
});
