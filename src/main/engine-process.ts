/**
 * The engine's process in the desktop app (an Electron utilityProcess): one EngineHost, and a
 * protocol server on every MessagePort the main process hands over (one per window load), behind
 * the renderer gate: only the UI's methods, and folders or models only as picked in a dialog.
 */
import fs from 'node:fs';
import { createEngine, EngineHost, importBundledModels, prepareEngineStore, serveRpc } from '../engine/index.ts';
import { createRendererGate, gatedReceiver, isGrantMessage } from './renderer-gate.ts';

const VERSION = process.env.npm_package_version ?? '0.1.0';
const env = process.env;
const demo =
  env.SYNAPSIS_DEMO_VAULT && env.SYNAPSIS_DEMO_QUESTIONS && env.SYNAPSIS_DEMO_TOUR && env.SYNAPSIS_DEMO_DIR && fs.existsSync(env.SYNAPSIS_DEMO_VAULT)
    ? { vault: env.SYNAPSIS_DEMO_VAULT, questionsFile: env.SYNAPSIS_DEMO_QUESTIONS, tourFile: env.SYNAPSIS_DEMO_TOUR, dataDir: env.SYNAPSIS_DEMO_DIR, modelsDir: env.SYNAPSIS_DEMO_MODELS }
    : undefined;
const engineOptions = env.SYNAPSIS_DATA_DIR ? { dataDir: env.SYNAPSIS_DATA_DIR } : {};
const host = new EngineHost({
  create: () => createEngine({ ...engineOptions, warmGraph: true }),
  // An older store's word index is rebuilt off this process's thread first: the window shows its progress.
  beforeOpen: (onProgress) => prepareEngineStore(engineOptions, onProgress),
  watch: true,
  onError: (error) => console.error('[synapsis engine]', error),
  ...(demo ? { demo } : {}),
});

const gate = createRendererGate();

// Models the installer carries (npm run dist -- --with-models) are imported on the first start, before
// any window talks to the engine, so the first screen already shows them in use; no network.
const ready = (async () => {
  if (!env.SYNAPSIS_BUNDLED_MODELS) return;
  const { added, skipped } = await importBundledModels(await host.engine(), env.SYNAPSIS_BUNDLED_MODELS);
  for (const s of skipped) console.error('[synapsis engine] a model the installer carries was not imported:', s.file, s.reason);
  if (added.length > 0) await host.restart();
})().catch((error: unknown) => console.error('[synapsis engine]', error));

// Only the main process holds the parent port: grants come from its dialogs, never from the renderer.
process.parentPort.on('message', (event) => {
  if (isGrantMessage(event.data)) {
    gate.grant(event.data.kind, event.data.path);
    return;
  }
  const port = event.ports[0];
  if ((event.data as { type?: string } | null)?.type !== 'connect' || !port) return;
  const rpc = serveRpc({ host, shell: 'electron', version: VERSION, send: (message) => port.postMessage(message) });
  const receive = gatedReceiver(gate, (message) => rpc.receive(message), (refusal) => port.postMessage(refusal));
  // Requests wait (in order) for the first-start import of the installer's models.
  port.on('message', (e) => void ready.then(() => receive(e.data)));
  port.on('close', () => rpc.dispose());
  port.start();
});

const shutdown = () => void host.dispose().finally(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
