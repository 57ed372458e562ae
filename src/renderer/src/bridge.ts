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

/** Handshakes refused while the server answers pages, in a row, before the token counts as stale. */
export const REFUSALS_BEFORE_STALE = 2;

export interface WebBridgeOptions {
  url?: string;
  /**
   * The server is up but refuses this tab's token: it was restarted and printed a new address.
   * Reconnecting stops; only the new address (its token) can reach the engine.
   */
  onTokenRefused?: () => void;
  /** Whether the server that served this page answers (a refused handshake from a live server means a stale token). */
  serverAnswers?: () => Promise<boolean>;
}

const pageServerAnswers = async () => {
  try {
    return (await fetch('/', { cache: 'no-store', method: 'HEAD' })).ok;
  } catch {
    return false;
  }
};

/**
 * A bridge over a WebSocket that reconnects (1 s, then up to 5 s apart) and queues requests meanwhile.
 * A browser hides why a handshake failed, so a refused token is told from a stopped server by asking
 * the page's server: it answers, yet the socket never opens.
 */
export function connectWebBridge(token: string, options: WebBridgeOptions = {}): SynapsisBridge {
  const url = options.url ?? `ws://${window.location.host}/rpc`;
  const serverAnswers = options.serverAnswers ?? pageServerAnswers;
  const queue: string[] = [];
  let socket: WebSocket | null = null;
  let delay = 1000;
  let refusals = 0;
  const core = createBridgeCore((message: ClientMessage) => {
    const text = JSON.stringify(message);
    if (socket?.readyState === WebSocket.OPEN) socket.send(text);
    else if (queue.length < 100) queue.push(text);
    else throw new Error('too many requests while disconnected');
  }, 'web');
  const open = () => {
    const ws = new WebSocket(url, ['synapsis', `synapsis-token.${token}`]);
    socket = ws;
    let wasOpen = false;
    ws.onopen = () => {
      wasOpen = true;
      refusals = 0;
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
      const retry = () => {
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 5000);
      };
      if (wasOpen || !options.onTokenRefused) return retry();
      void serverAnswers().then((answers) => {
        refusals = answers ? refusals + 1 : 0;
        if (refusals >= REFUSALS_BEFORE_STALE) options.onTokenRefused!();
        else retry();
      });
    };
  };
  open();
  return core.bridge;
}

/** The bridge this page should use, or null in web mode without a token (the UI then says how to get one). */
export function resolveBridge(onTokenRefused?: () => void): SynapsisBridge | null {
  if (window.synapsis) return window.synapsis;
  const token = readToken(window.location, window.sessionStorage, window.history);
  return token ? connectWebBridge(token, onTokenRefused ? { onTokenRefused } : {}) : null;
}

/**
 * A new address pasted into this tab changes only its fragment, which does not reload the page:
 * take the new token and reload, so the page connects with it.
 */
export function reloadOnNewToken(): () => void {
  const onHash = () => {
    if (/(?:^#|&)token=[0-9a-f]{16,128}/.test(window.location.hash)) {
      readToken(window.location, window.sessionStorage, window.history);
      window.location.reload();
    }
  };
  window.addEventListener('hashchange', onHash);
  return () => window.removeEventListener('hashchange', onHash);
}
