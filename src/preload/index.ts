/** Exposes only `window.synapsis`, typed from the contract; the transport arrives with the desktop-app issue. */
import { contextBridge } from 'electron';
import { METHODS } from '../shared/contract.ts';

const api = {
  methods: METHODS,
  version: '0.1.0',
};

export type SynapsisBridge = typeof api;

contextBridge.exposeInMainWorld('synapsis', api);
