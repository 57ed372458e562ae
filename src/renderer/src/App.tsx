import { METHODS } from '../../shared/contract.ts';

/** Placeholder shell: the real screens (onboarding, ask, search, graph) come with the desktop-app issue. */
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 32 }}>
      <h1>Synapsis</h1>
      <p>Your second brain, on this machine only.</p>
      <p>Engine methods: {METHODS.join(', ')}</p>
    </main>
  );
}
