/**
 * Exposes only `window.synapsis` (a SynapsisBridge, typed from the contract): requests go over the
 * MessagePort the main process sends on every load, straight to the engine's utilityProcess. The
 * renderer gets no ipcRenderer, no Node, no other channel; the system dialogs (a folder to add, a
 * model file to import) are the requests answered by main, which tells the engine what was picked.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createBridgeCore, type ClientMessage, type RpcOutcome, type SynapsisBridge } from '../shared/rpc.ts';

let port: MessagePort | null = null;
const waiting: ClientMessage[] = [];
const core = createBridgeCore((message) => {
  if (port) port.postMessage(message);
  else if (waiting.length < 100) waiting.push(message);
  else throw new Error('the engine is not connected');
}, 'electron');

ipcRenderer.on('synapsis:port', (event) => {
  const next = event.ports[0];
  if (!next) return;
  if (port) {
    // The engine restarted: requests sent to the old one will not be answered.
    core.close('the engine restarted');
    port.close();
  }
  port = next;
  port.onmessage = (e: MessageEvent) => core.receive(e.data);
  port.start();
  for (const message of waiting.splice(0)) port.postMessage(message);
  core.opened();
});

// A .md file opened with the app arrives as an event the UI subscribes to like the engine's.
ipcRenderer.on('synapsis:open-file', (_event, file: unknown) => {
  if (typeof file === 'string') core.receive({ type: 'event', event: 'app/openFile', payload: { path: file } });
});

/** Host methods main answers itself, by the IPC channel that asks it. */
const MAIN_CHANNELS: Record<string, string> = { 'app/pickFolder': 'synapsis:pickFolder', 'app/pickModelFile': 'synapsis:pickModelFile', 'app/pickModelFolder': 'synapsis:pickModelFolder' };

const bridge: SynapsisBridge = {
  shell: 'electron',
  request(method, params, options) {
    const channel = Object.prototype.hasOwnProperty.call(MAIN_CHANNELS, method) ? MAIN_CHANNELS[method] : undefined;
    if (channel) {
      return ipcRenderer.invoke(channel).then(
        (path: string | null): RpcOutcome => ({ ok: true, result: { path } }),
        (error: Error): RpcOutcome => ({ ok: false, error: { code: 'E_SYN_BAD_REQUEST', message: error.message, retryable: false } }),
      );
    }
    return core.bridge.request(method, params, options);
  },
  cancel: (callId) => core.bridge.cancel(callId),
  on: (event, listener) => core.bridge.on(event, listener),
  onConnection: (listener) => core.bridge.onConnection(listener),
};

contextBridge.exposeInMainWorld('synapsis', bridge);
