/**
 * A local HTTP server that serves model files the way Hugging Face does (HEAD, Range requests),
 * records what was asked and sent, and can cut the first ranged response after some bytes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ModelServer {
  url: string;
  requests: { method: string; path: string; range: string | null }[];
  /** Bytes written in answers to ranged requests (the file's data, probes aside). */
  rangedBytesSent: number;
  close(): Promise<void>;
}

/** cutFirstRangedAfter: cut the first ranged answer after that many bytes; bytesPerSecond: send file data no faster (a slow line). */
export async function serveModels(files: Record<string, Buffer>, options: { cutFirstRangedAfter?: number; bytesPerSecond?: number } = {}): Promise<ModelServer> {
  let cut = options.cutFirstRangedAfter;
  const state: ModelServer = { url: '', requests: [], rangedBytesSent: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1));
    const range = req.headers.range ?? null;
    state.requests.push({ method: req.method ?? '', path: `/${name}`, range });
    const data = files[name];
    if (!data) return void res.writeHead(404).end();
    let start = 0;
    let end = data.length - 1;
    const m = range ? /bytes=(\d+)-(\d*)/.exec(range) : null;
    if (m) {
      start = Number(m[1]);
      if (m[2]) end = Number(m[2]);
    }
    const body = data.subarray(start, end + 1);
    res.writeHead(m ? 206 : 200, { 'content-length': body.length, 'accept-ranges': 'bytes', 'content-type': 'application/octet-stream', ...(m ? { 'content-range': `bytes ${start}-${end}/${data.length}` } : {}) });
    if (req.method === 'HEAD') return void res.end();
    if (m && cut !== undefined) {
      const sent = body.subarray(0, cut);
      cut = undefined;
      state.rangedBytesSent += sent.length;
      res.write(sent, () => setTimeout(() => res.destroy(), 20));
      return;
    }
    if (options.bytesPerSecond && req.method === 'GET') {
      // 64 KB at a time at the given rate; counted as sent, so a cancelled answer counts what went out.
      const piece = 64 * 1024;
      let at = 0;
      const next = () => {
        if (res.destroyed || at >= body.length) return void res.end();
        const part = body.subarray(at, at + piece);
        at += part.length;
        if (m) state.rangedBytesSent += part.length;
        res.write(part, () => setTimeout(next, (part.length / options.bytesPerSecond!) * 1000));
      };
      res.on('close', () => (at = body.length));
      next();
      return;
    }
    if (m) state.rangedBytesSent += body.length;
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return state;
}
