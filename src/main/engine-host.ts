/**
 * The engine's process in the desktop app (an Electron utilityProcess): one EngineHost, and a
 * protocol server on every MessagePort the main process hands over (one per window load).
 */
import { createEngine, EngineHost, serveRpc } from '../engine/index.ts';

const VERSION = process.env.npm_package_version ?? '0.1.0';
const host = new EngineHost({
  create: () => createEngine(process.env.SYNAPSIS_DATA_DIR ? { dataDir: process.env.SYNAPSIS_DATA_DIR } : {}),
  watch: true,
  onError: (error) => console.error('[synapsis engine]', error),
});

process.parentPort.on('message', (event) => {
  const port = event.ports[0];
  if ((event.data as { type?: string } | null)?.type !== 'connect' || !port) return;
  const rpc = serveRpc({ host, shell: 'electron', version: VERSION, send: (message) => port.postMessage(message) });
  port.on('message', (e) => rpc.receive(e.data));
  port.on('close', () => rpc.dispose());
  port.start();
});

const shutdown = () => void host.dispose().finally(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
