/**
 * The engine's process in the desktop app (an Electron utilityProcess): one EngineHost, and a
 * protocol server on every MessagePort the main process hands over (one per window load).
 */
import fs from 'node:fs';
import { createEngine, EngineHost, serveRpc } from '../engine/index.ts';

const VERSION = process.env.npm_package_version ?? '0.1.0';
const env = process.env;
const demo =
  env.SYNAPSIS_DEMO_VAULT && env.SYNAPSIS_DEMO_QUESTIONS && env.SYNAPSIS_DEMO_TOUR && env.SYNAPSIS_DEMO_DIR && fs.existsSync(env.SYNAPSIS_DEMO_VAULT)
    ? { vault: env.SYNAPSIS_DEMO_VAULT, questionsFile: env.SYNAPSIS_DEMO_QUESTIONS, tourFile: env.SYNAPSIS_DEMO_TOUR, dataDir: env.SYNAPSIS_DEMO_DIR, modelsDir: env.SYNAPSIS_DEMO_MODELS }
    : undefined;
const host = new EngineHost({
  create: () => createEngine(env.SYNAPSIS_DATA_DIR ? { dataDir: env.SYNAPSIS_DATA_DIR } : {}),
  watch: true,
  onError: (error) => console.error('[synapsis engine]', error),
  ...(demo ? { demo } : {}),
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
