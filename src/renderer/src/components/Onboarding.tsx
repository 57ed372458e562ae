import { useEffect } from 'react';
import { useAppFields } from '../store.ts';
import { FolderPicker } from './FolderPicker.tsx';
import { GetModels } from './GetModels.tsx';
import { ModelImport } from './ModelImport.tsx';
import { formatBytes } from './text.tsx';

const ADDS: Record<string, string> = {
  embed: 'search by meaning, not only by words',
  chat: 'answers written in sentences, checked by the critic',
  rerank: 'a second, finer ordering of results',
};

/** First run, on one screen: folders, the machine and its models (none needed to start), then indexing. */
export function Onboarding() {
  const { roots, models, system, loadSystem, finishOnboarding, restartNeeded, restartEngine, demo, startDemo, indexNow } = useAppFields('roots', 'models', 'system', 'loadSystem', 'finishOnboarding', 'restartNeeded', 'restartEngine', 'demo', 'startDemo', 'indexNow');
  useEffect(() => {
    if (!system) void loadSystem();
  }, [system, loadSystem]);
  return (
    <div className="onboarding" data-testid="onboarding">
      <div className="onboarding__card">
        <div className="brand brand--big">
          <span className="brand__mark" aria-hidden>
            ◆
          </span>{' '}
          Synapsis
        </div>
        <p className="lead">Your second brain, on this machine only. Nothing you index or ask ever leaves it.</p>

        <h2>1 · Your folders</h2>
        <p className="muted">Markdown notes, text, PDFs, Word documents, web pages and code. Files stay where they are; Synapsis reads them and keeps up as they change.</p>
        <FolderPicker />
        {roots.length > 0 && (
          <ul className="roots roots--compact">
            {roots.map((r) => (
              <li key={r.id}>✓ {r.path}</li>
            ))}
          </ul>
        )}

        <h2>2 · Models (optional)</h2>
        <div className="hardware" data-testid="hardware">
          {system ? (
            <>
              <strong>{system.gpu ? `GPU: ${system.gpu}` : 'CPU only'}</strong> · {system.cpus} cores ({system.cpu_model}) · {formatBytes(system.memory_bytes)} memory
              {system.gpu_reason && <div className="muted small">{system.gpu_reason}</div>}
            </>
          ) : (
            <span className="muted">Checking this machine…</span>
          )}
        </div>
        {models.length === 0 ? (
          <p className="muted" data-testid="models-present">
            No models yet: search by words works at once. An embedding model adds {ADDS.embed}; a chat model adds {ADDS.chat}. Download the recommended ones (checked, then used offline), or import
            them from a folder, such as a USB stick.
          </p>
        ) : (
          <ul className="roots roots--compact" data-testid="models-present">
            {models.map((m) => (
              <li key={m.id}>
                ✓ {m.name} <span className="muted">— {ADDS[m.role] ?? m.role}</span>
              </li>
            ))}
          </ul>
        )}
        <GetModels />
        <details className="setting__details small">
          <summary>Import one model file</summary>
          <ModelImport />
        </details>

        <div className="row row--end">
          {demo?.available && (
            <button type="button" className="btn btn--ghost" onClick={() => void startDemo()} data-testid="try-demo">
              Try the demo first
            </button>
          )}
          <button
            type="button"
            className="btn btn--primary"
            disabled={roots.length === 0}
            onClick={async () => {
              if (restartNeeded) await restartEngine();
              finishOnboarding();
              void indexNow();
            }}
          >
            {models.length > 0 ? 'Start' : 'Start with search by words'}
          </button>
        </div>
      </div>
    </div>
  );
}
