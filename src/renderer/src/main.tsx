import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from '../../shared/rpc.ts';
import { reloadOnNewToken, resolveBridge } from './bridge.ts';
import { App } from './components/App.tsx';
import { useApp } from './store.ts';
import './styles.css';

const bridge = resolveBridge(() => useApp.getState().tokenRefused());
if (!window.synapsis) reloadOnNewToken();
if (bridge) useApp.getState().connect(createClient(bridge));

const container = document.getElementById('root');
if (!container) throw new Error('missing #root');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
