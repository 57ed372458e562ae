/**
 * A thread that prepares files for the indexer (prepare.ts prepareFile): reads, parses and analyzes
 * each file it is sent and answers with the result, in the order asked.
 */
import { parentPort } from 'node:worker_threads';
import { prepareFile, type PrepareRequest } from './prepare.ts';
import type { PrepareReply } from './prepare-pool.ts';

const port = parentPort;
if (!port) throw new Error('prepare-worker.ts runs as a worker thread only');

// One file at a time, in the order sent: a file's parse may await (a PDF's pages), and the replies keep their order.
let chain: Promise<void> = Promise.resolve();
port.on('message', ({ id, request }: { id: number; request: PrepareRequest }) => {
  chain = chain.then(async () => {
    const result = await prepareFile(request);
    port.postMessage({ id, result } satisfies PrepareReply);
  });
});
port.postMessage({ ready: true } satisfies PrepareReply);
