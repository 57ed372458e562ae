/**
 * The renderer's way to the engine: Electron's preload bridge when there is one, otherwise web
 * mode's WebSocket to the server that served this page, with the token from the address the
 * server printed (kept in sessionStorage so a reload works, removed from the address bar).
 */
import { createBridgeCore, type ClientMessage, type SynapsisBridge } from '../../shared/rpc.ts';

const TOKEN_KEY = 'synapsis.token';

export function readToken(location: Location, storage: Storage, history: History): string | null {
  const match = /(?:^#|&)token=([0-9a-f]{16,128})/.exec(location.hash);
  if (match) {
    storage.setItem(TOKEN_KEY, match[1]!);
    history.replaceState(null, '', location.pathname + location.search);
    return match[1]!;
  }
  return storage.getItem(TOKEN_KEY);
}

/** A bridge over a WebSocket that reconnects (1 s, then up to 5 s apart) and queues requests meanwhile. */
export function connectWebBridge(token: string, url = `ws://${window.location.host}/rpc`): SynapsisBridge {
  const queue: string[] = [];
  let socket: WebSocket | null = null;
  let delay = 1000;
  const core = createBridgeCore((message: ClientMessage) => {
    const text = JSON.stringify(message);
    if (socket?.readyState === WebSocket.OPEN) socket.send(text);
    else if (queue.length < 100) queue.push(text);
    else throw new Error('too many requests while disconnected');
  }, 'web');
  const open = () => {
    const ws = new WebSocket(url, ['synapsis', `synapsis-token.${token}`]);
    socket = ws;
    ws.onopen = () => {
      delay = 1000;
      for (const text of queue.splice(0)) ws.send(text);
      core.opened();
    };
    ws.onmessage = (event) => {
      try {
        core.receive(JSON.parse(String(event.data)));
      } catch {
        // Not JSON: not ours.
      }
    };
    ws.onclose = () => {
      core.close('the web server closed the connection');
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 5000);
    };
  };
  open();
  return core.bridge;
}

/** The bridge this page should use, or null in web mode without a token (the UI then says how to get one). */
export function resolveBridge(): SynapsisBridge | null {
  if (window.synapsis) return window.synapsis;
  const token = readToken(window.location, window.sessionStorage, window.history);
  return token ? connectWebBridge(token) : null;
}
