import { useEffect } from 'react';
import { progressText } from '../../../shared/progress-text.ts';
import { useAppFields, type RetrievalChoice, type Theme } from '../store.ts';
import { unusedEmbedderNote } from '../../../shared/embed-plan.ts';
import { GetModels, SpeedNote } from './GetModels.tsx';
import { ModelImport } from './ModelImport.tsx';
import { formatBytes, formatCount } from './text.tsx';

/** A setting: its name and what it means in plain words; the technical names behind "Details". */
function Row({ label, children, hint, details }: { label: string; children: React.ReactNode; hint?: string; details?: React.ReactNode }) {
  return (
    <div className="setting">
      <div className="setting__label">
        {label}
        {hint && <div className="muted small">{hint}</div>}
        {details && (
          <details className="setting__details small">
            <summary>Details</summary>
            <div className="muted">{details}</div>
          </details>
        )}
      </div>
      <div className="setting__value">{children}</div>
    </div>
  );
}

/**
 * A degradation as the engine reports it ("no embedding model: lexical retrieval only (synapsis
 * models add <file.gguf>)") in plain words; the original stays under Details.
 */
export function plainDegradation(text: string): string {
  if (/^no embedding model/i.test(text)) return 'Search finds your words, not their meaning: no embedding model is installed. Add one under Models below.';
  if (/^no chat model/i.test(text)) return 'Answers quote your notes word for word: no chat model is installed.';
  if (/\b(gpu|cuda|vulkan|metal)\b/i.test(text)) return 'Models run on the processor: the graphics card could not be used.';
  // Otherwise the engine's sentence, without the command or setting that fixes it.
  const plain = text.replace(/\s*\((?:synapsis |SYN_|set |see )[^)]*\)/gi, '').trim();
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

/** How the engine is doing: what is degraded (in plain words, the engine's words under Details), what is indexed, indexing progress. */
function HealthSection() {
  const { health, status } = useAppFields('health', 'status');
  return (
    <>
      <h2>Health</h2>
      <div className={`health health--${health?.status ?? 'ok'}`} data-testid="health">
        <strong>{health?.status === 'degraded' ? 'Working, with limits' : 'Everything works'}</strong>
        {health && health.degradations.length > 0 && (
          <ul>
            {health.degradations.map((d) => (
              <li key={d}>{plainDegradation(d)}</li>
            ))}
          </ul>
        )}
        {health && (
          <p className="muted small">
            {formatCount(health.documents.indexed)} documents · {formatCount(health.chunks)} passages
          </p>
        )}
        {status?.progress && (
          <p className="small" data-testid="settings-progress">
            Indexing: {progressText(status.progress)}
          </p>
        )}
        {health && (
          <details className="setting__details small" data-testid="health-details">
            <summary>Details</summary>
            {health.degradations.length > 0 && (
              <ul className="mono">
                {health.degradations.map((d) => (
                  <li key={d}>{d}</li>
                ))}
              </ul>
            )}
            <p className="muted">
              By type:{' '}
              {Object.entries(health.documents.by_type)
                .map(([t, n]) => `${t} ${n}`)
                .join(', ') || 'none'}{' '}
              · {formatCount(health.vectors.count)} vectors{health.vectors.backend ? ` (${health.vectors.backend})` : ''} · index {health.index_version} · data in <span className="mono">{health.data_dir}</span>
            </p>
          </details>
        )}
      </div>
    </>
  );
}

/** The machine the models run on: GPU or CPU, threads, cores and memory. */
function MachineSection() {
  const { system } = useAppFields('system');
  return (
    <>
      <h2>This machine</h2>
      <p data-testid="system">
        {system ? (
          <>
            {system.gpu ? `GPU (${system.gpu})` : 'CPU'} · {system.threads} threads · {system.cpus} cores · {formatBytes(system.memory_bytes)} · {system.platform}/{system.arch}
            {system.gpu_reason && <span className="muted small"> — {system.gpu_reason}</span>}
          </>
        ) : (
          <span className="muted">Checking…</span>
        )}
      </p>
    </>
  );
}

/** Models in use that this workspace did not import (the demo's, or set in the configuration); or, with none at all, what works without them. */
function ModelsInUse() {
  const { health, models, demo } = useAppFields('health', 'models', 'demo');
  const listed = new Set(models.map((m) => m.id));
  const inUse = health
    ? [
        ...((health.models.embedders ?? []).length > 0 ? health.models.embedders.map((e) => ({ id: e.id, name: e.name, role: 'embedding' })) : health.models.embed ? [{ ...health.models.embed, role: 'embedding' }] : []),
        ...(health.models.chat ? [{ ...health.models.chat, role: 'chat' }] : []),
        ...(health.models.rerank ? [{ ...health.models.rerank, role: 'rerank' }] : []),
      ].filter((m) => !listed.has(m.id))
    : [];
  if (inUse.length > 0) {
    return (
      <ul className="models-in-use" data-testid="models-in-use">
        {inUse.map((m) => (
          <li key={`${m.role}-${m.id}`}>
            <strong>{m.name}</strong> <span className="tag">{m.role}</span> <span className="badge badge--approve">in use</span>{' '}
            <span className="muted small">{demo?.active ? 'brought by the demo' : 'set in the configuration'}</span>
          </li>
        ))}
      </ul>
    );
  }
  return models.length === 0 ? <p className="muted">No models: search finds your words (not their meaning), and answers quote the best sentences of your sources.</p> : null;
}

/** The imported models: what each is, whether it is in use, and Remove. */
function ModelTable() {
  const { health, models, removeModel } = useAppFields('health', 'models', 'removeModel');
  return (
    <table className="models">
      <tbody>
        {models.map((m) => {
          const inUse = [health?.models.embed?.id, health?.models.chat?.id, health?.models.rerank?.id, ...(health?.models.embedders ?? []).map((e) => e.id)].includes(m.id);
          return (
            <tr key={m.id}>
              <td>
                <strong>{m.name}</strong>
                <div className="muted small">
                  {m.architecture} · {formatBytes(m.size_bytes)}
                  {m.dimension > 0 && ` · dim ${m.dimension}`} · context {formatCount(m.context_length)}
                  {m.role === 'embed' && m.languages && ` · languages ${m.languages.includes('*') ? 'all' : m.languages.join(', ')}`}
                </div>
                {m.role === 'chat' && m.tokens_per_s !== undefined && <SpeedNote tokensPerS={m.tokens_per_s} measured />}
                {(() => {
                  const note = health ? unusedEmbedderNote(m, (health.models.embedders ?? []).map((e) => ({ ...e, role: 'embed' }))) : null;
                  return note ? (
                    <div className="muted small" data-testid="embedder-unused">
                      {note}
                    </div>
                  ) : null;
                })()}
              </td>
              <td>
                <span className="tag">{m.role}</span> {inUse && <span className="badge badge--approve">in use</span>}
              </td>
              <td>
                <button type="button" className="link small danger" onClick={() => void removeModel(m.id)}>
                  Remove
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The models: those in use, those imported, getting and importing more, and restarting the engine when they change. */
function ModelsSection() {
  const { restartNeeded, restartEngine } = useAppFields('restartNeeded', 'restartEngine');
  return (
    <>
      <h2>Models</h2>
      <ModelsInUse />
      <ModelTable />
      <GetModels />
      <ModelImport withRole />
      {restartNeeded && (
        <p className="notice">
          Model changes apply when the engine restarts.{' '}
          <button type="button" className="btn btn--primary" onClick={() => void restartEngine()}>
            Restart engine
          </button>
        </p>
      )}
    </>
  );
}

/** How passages are retrieved and ranked: the mode, the passage size, sentence matching, the profile and the languages. */
function RetrievalSection() {
  const { health, mode, setMode } = useAppFields('health', 'mode', 'setMode');
  const config = (health?.config ?? {}) as Record<string, unknown>;
  return (
    <>
      <h2>Retrieval</h2>
      <Row label="Mode" hint="Auto: hybrid when an embedding model works, otherwise lexical.">
        <select value={mode} onChange={(e) => setMode(e.target.value as RetrievalChoice)} aria-label="Retrieval mode">
          <option value="auto">Auto</option>
          <option value="hybrid">Hybrid (words + meaning)</option>
          <option value="bm25">Lexical (words)</option>
          <option value="dense">Meaning only</option>
        </select>
      </Row>
      <Row
        label="Passage size"
        hint="Your files are read in passages of about this many characters, each overlapping the next so no sentence is cut in two."
        details={
          <>
            Set with <code>SYN_CHUNK_SIZE</code> and <code>SYN_CHUNK_OVERLAP</code>; a change re-reads every file into a new index version.
          </>
        }
      >
        <span className="mono">
          {String(config.chunkSize ?? '—')} characters, overlap {String(config.chunkOverlap ?? '—')}
        </span>
      </Row>
      {(health?.models.embedders ?? []).length > 0 && (
        <Row
          label="Sentence matching"
          hint="Every sentence of your prose is also matched on its own, so a long passage is found by its best sentence."
          details={
            <>
              Each embedding model embeds every sentence (not code); a passage&apos;s closeness is mostly that of its closest sentence (the profile&apos;s <code>chunk_share</code>). <code>SYN_SENTENCE_VECTORS=false</code> keeps one vector per passage.
            </>
          }
        >
          <span className="mono" data-testid="settings-sentences">
            {health!.models.embedders.some((e) => e.sentences)
              ? health!.models.embedders
                  .filter((e) => e.sentences)
                  .map((e) => `${e.name} ${formatCount(e.sentences!.vectors)}${e.sentences!.pending > 0 ? ` (${formatCount(e.sentences!.pending)} waiting)` : ''}`)
                  .join(' · ')
              : 'off'}
          </span>
        </Row>
      )}
      <Row
        label="Ranking"
        hint="How matches on your words and matches on meaning are weighed together, and how many passages an answer reads."
        details={
          <>
            The retrieval profile (<code>SYN_PROFILE</code>) weighs the lexical list and each embedding model&apos;s; <code>SYN_FUSION</code> overrides its kind{config.fusion ? ` (now ${String(config.fusion)})` : ''}; <code>SYN_TOP_K</code> sets the passages. Measured in docs/quality.md.
          </>
        }
      >
        <span data-testid="settings-profile">
          profile {health?.profile ?? 'default'} · {String(config.topK ?? 8)} passages per answer
        </span>
      </Row>
      {health?.languages && health.languages.length > 0 && (
        <Row label="Languages" hint="Detected per passage. Each embedding model answers questions in the languages it covers; the others are searched by words.">
          <span className="mono" data-testid="settings-languages">
            {health.languages.map((l) => `${l.lang === 'und' ? 'unknown' : l.lang} ${formatCount(l.chunks)}`).join(' · ')}
          </span>
        </Row>
      )}
    </>
  );
}

/** Whether restricted notes are shown until the window closes. */
function PrivacySection() {
  const { health, allowRestricted, setAllowRestricted } = useAppFields('health', 'allowRestricted', 'setAllowRestricted');
  const config = (health?.config ?? {}) as Record<string, unknown>;
  return (
    <>
      <h2>Privacy</h2>
      <Row
        label="Restricted notes"
        hint="Notes marked restricted are hidden from search, answers and the graph unless you show them here, until the window closes or reloads."
        details={
          <>
            A note is restricted by <code>sensitivity: restricted</code> in its front matter. <code>SYN_SENSITIVITY_ENABLE=false</code> turns hiding off.
          </>
        }
      >
        <label className="switch">
          <input type="checkbox" checked={allowRestricted} onChange={(e) => setAllowRestricted(e.target.checked)} disabled={config.sensitivityEnable === false} />
          <span>{config.sensitivityEnable === false ? 'Hiding is turned off on this machine' : 'Show them until the window closes'}</span>
        </label>
      </Row>
    </>
  );
}

/** Opening or leaving the demo workspace, where one is bundled. */
function DemoSection() {
  const { demo, startDemo, exitDemo } = useAppFields('demo', 'startDemo', 'exitDemo');
  if (!demo?.available) return null;
  return (
    <>
      <h2>Demo</h2>
      <Row label="Demo workspace" hint="The sample vault of a fictional company, in a data dir of its own, with a guided tour. Your folders are not touched.">
        {demo.active ? (
          <button type="button" className="btn btn--ghost" onClick={() => void exitDemo()}>
            Leave the demo
          </button>
        ) : (
          <button type="button" className="btn btn--ghost" onClick={() => void startDemo()} data-testid="settings-demo">
            Open the demo
          </button>
        )}
      </Row>
    </>
  );
}

/** The theme, and the keyboard shortcuts. */
function AppearanceSection() {
  const { theme, setTheme } = useAppFields('theme', 'setTheme');
  return (
    <>
      <h2>Appearance</h2>
      <Row label="Theme">
        <div className="segmented" role="radiogroup" aria-label="Theme">
          {(['system', 'light', 'dark'] as Theme[]).map((t) => (
            <button key={t} type="button" role="radio" aria-checked={theme === t} className={theme === t ? 'on' : ''} onClick={() => setTheme(t)}>
              {t}
            </button>
          ))}
        </div>
      </Row>
      <Row label="Keyboard">
        <span className="small">
          <kbd>Ctrl/⌘ K</kbd> ask · <kbd>Ctrl/⌘ /</kbd> search · <kbd>Alt 1–5</kbd> views · <kbd>Esc</kbd> close the preview
        </span>
      </Row>
    </>
  );
}

export function SettingsView() {
  const { system, loadSystem } = useAppFields('system', 'loadSystem');
  useEffect(() => {
    if (!system) void loadSystem();
  }, [system, loadSystem]);

  return (
    <section className="view view--settings" aria-label="Settings">
      <header className="view__header">
        <h1>Settings and health</h1>
      </header>

      <HealthSection />
      <MachineSection />
      <ModelsSection />
      <RetrievalSection />
      <PrivacySection />
      <DemoSection />
      <AppearanceSection />
    </section>
  );
}
