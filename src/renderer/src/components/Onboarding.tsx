import { useEffect, useState } from 'react';
import { useApp } from '../store.ts';
import { FolderPicker } from './FolderPicker.tsx';
import { formatBytes } from './text.tsx';

/** First run: choose folders, then models (or lexical-only), seeing what this machine can run. */
export function Onboarding() {
  const { roots, models, system, loadSystem, importModel, finishOnboarding, restartNeeded, restartEngine, demo, startDemo } = useApp();
  const [step, setStep] = useState<1 | 2>(1);
  const [modelPath, setModelPath] = useState('');
  useEffect(() => {
    if (step === 2 && !system) void loadSystem();
  }, [step, system, loadSystem]);
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
        <ol className="steps">
          <li className={step === 1 ? 'steps__on' : ''}>Folders</li>
          <li className={step === 2 ? 'steps__on' : ''}>Models</li>
        </ol>
        {step === 1 && (
          <>
            <h2>Which folders should Synapsis know?</h2>
            <p className="muted">Markdown notes, text, PDFs, Word documents, web pages and code. Files stay where they are; Synapsis watches them and keeps up.</p>
            <FolderPicker />
            {roots.length > 0 && (
              <ul className="roots roots--compact">
                {roots.map((r) => (
                  <li key={r.id}>✓ {r.path}</li>
                ))}
              </ul>
            )}
            <div className="row row--end">
              {demo?.available && (
                <button type="button" className="btn btn--ghost" onClick={() => void startDemo()} data-testid="try-demo">
                  Try the demo first
                </button>
              )}
              <button type="button" className="btn btn--primary" disabled={roots.length === 0} onClick={() => setStep(2)}>
                Next
              </button>
            </div>
          </>
        )}
        {step === 2 && (
          <>
            <h2>Models (optional)</h2>
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
            <p className="muted">
              Search works without any model. An embedding model (e.g. all-MiniLM-L6-v2 or multilingual-e5-small, GGUF) adds search by meaning; a chat model writes cited answers. Import the .gguf
              files you have; nothing is downloaded.
            </p>
            <form
              className="folder-picker"
              onSubmit={async (e) => {
                e.preventDefault();
                if (await importModel(modelPath.trim())) setModelPath('');
              }}
            >
              <input value={modelPath} onChange={(e) => setModelPath(e.target.value)} placeholder="/path/to/model.gguf" aria-label="Model file" spellCheck={false} />
              <button type="submit" className="btn btn--ghost" disabled={!modelPath.trim()}>
                Import model
              </button>
            </form>
            {models.length > 0 && (
              <ul className="roots roots--compact">
                {models.map((m) => (
                  <li key={m.id}>
                    ✓ {m.name} <span className="muted">({m.role})</span>
                  </li>
                ))}
              </ul>
            )}
            <div className="row row--end">
              <button type="button" className="btn btn--ghost" onClick={() => setStep(1)}>
                Back
              </button>
              <button
                type="button"
                className="btn btn--primary"
                onClick={async () => {
                  if (restartNeeded) await restartEngine();
                  finishOnboarding();
                }}
              >
                {models.length > 0 ? 'Start' : 'Continue with search only'}
              </button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
