import type { SynapsisBridge } from '../../shared/rpc.ts';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in web mode, where the UI connects over a WebSocket. */
    synapsis?: SynapsisBridge;
  }
}
