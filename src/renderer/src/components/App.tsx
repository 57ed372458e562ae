import { useEffect, useState } from 'react';
import { progressText } from '../../../shared/progress-text.ts';
import { useApp, useAppFields, type View } from '../store.ts';
import { AskView } from './AskView.tsx';
import { DemoBanner } from './DemoBanner.tsx';
import { GraphView } from './GraphView.tsx';
import { LibraryView } from './LibraryView.tsx';
import { Onboarding } from './Onboarding.tsx';
import { SearchView } from './SearchView.tsx';
import { SettingsView } from './SettingsView.tsx';
import { SourcePreview } from './SourcePreview.tsx';

const NAV: { view: View; label: string; icon: string; keys: string }[] = [
  { view: 'ask', label: 'Ask', icon: '✦', keys: 'Ctrl+K' },
  { view: 'search', label: 'Search', icon: '⌕', keys: 'Ctrl+/' },
  { view: 'library', label: 'Library', icon: '▤', keys: 'Alt+3' },
  { view: 'graph', label: 'Graph', icon: '⋈', keys: 'Alt+4' },
  { view: 'settings', label: 'Settings', icon: '⚙', keys: 'Alt+5' },
];

function focusSoon(id: string) {
  requestAnimationFrame(() => document.getElementById(id)?.focus());
}

/** The theme on <html data-theme>, following the OS when set to system. */
function useTheme() {
  const theme = useApp((s) => s.theme);
  useEffect(() => {
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    const apply = () => (document.documentElement.dataset.theme = theme === 'system' ? (media?.matches ? 'dark' : 'light') : theme);
    apply();
    media?.addEventListener?.('change', apply);
    return () => media?.removeEventListener?.('change', apply);
  }, [theme]);
}

function useShortcuts() {
  const { setView, closePreview } = useAppFields('setView', 'closePreview');
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setView('ask');
        focusSoon('ask-input');
      } else if (mod && e.key === '/') {
        e.preventDefault();
        setView('search');
        focusSoon('search-input');
      } else if (e.altKey && /^[1-5]$/.test(e.key)) {
        e.preventDefault();
        setView(NAV[Number(e.key) - 1]!.view);
      } else if (e.key === 'Escape' && useApp.getState().preview) {
        // Esc closes the preview and nothing else: a search field's own Esc would clear the query.
        e.preventDefault();
        closePreview();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setView, closePreview]);
}

function IndexBadge() {
  const { status, connected, watchFolders } = useAppFields('status', 'connected', 'watchFolders');
  // The engine's progress model, as the Library and Settings show it.
  const progress = status?.progress;
  const working = progress && progress.phase !== 'done' ? progress : null;
  let text = 'Up to date';
  if (!connected) text = 'Reconnecting to the engine…';
  else if (status?.paused) text = working ? progressText(working) : 'Indexing paused';
  else if (working && (status?.running || working.state === 'running')) text = progressText(working);
  else if (status?.running) text = 'Indexing…';
  // Work that waits with nothing running (an embedding model that does not load): said, not hidden.
  else if (working) text = progressText(working);
  else if (status?.watching) text = 'Watching for changes';
  else if (!watchFolders) text = 'Indexed · not watching for changes';
  return (
    <div className={`index-badge${!connected ? ' index-badge--off' : status?.running ? ' index-badge--busy' : ''}`} data-testid="index-badge" role="status" title={text}>
      <span className="dot" aria-hidden /> <span className="index-badge__text">{text}</span>
    </div>
  );
}

/** While restricted notes are shown, the window says so, and one click hides them again. */
function RestrictedMode() {
  const { allowRestricted, setAllowRestricted, sidebarCollapsed } = useAppFields('allowRestricted', 'setAllowRestricted', 'sidebarCollapsed');
  if (!allowRestricted) return null;
  const why = 'Restricted notes appear in search, answers and the graph until you hide them or close this window';
  if (sidebarCollapsed) {
    // No room for words: a marked icon that says what it is and hides them on a click.
    return (
      <button type="button" className="restricted-mode restricted-mode--icon" onClick={() => setAllowRestricted(false)} data-testid="restricted-mode" aria-label="Restricted notes shown: hide them" title={`Restricted notes shown: click to hide them. ${why}.`}>
        <span aria-hidden>⚠</span>
      </button>
    );
  }
  return (
    <div className="restricted-mode" role="status" data-testid="restricted-mode" title={why}>
      <span className="restricted-mode__text">
        <span aria-hidden>⚠</span> Restricted notes shown
      </span>
      <button type="button" className="link small" onClick={() => setAllowRestricted(false)}>
        Hide
      </button>
    </div>
  );
}

function Toasts() {
  const { toasts, dismissToast } = useAppFields('toasts', 'dismissToast');
  return (
    <div className="toasts" aria-live="assertive">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast--${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
          <span>{t.text}</span>
          {t.action && (
            <button
              type="button"
              className="btn btn--ghost"
              onClick={() => {
                dismissToast(t.id);
                t.action!.run();
              }}
            >
              {t.action.label}
            </button>
          )}
          <button type="button" className="btn btn--icon" onClick={() => dismissToast(t.id)} aria-label="Dismiss">
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

export function NoConnection() {
  return (
    <div className="onboarding">
      <div className="onboarding__card">
        <div className="brand brand--big">◆ Synapsis</div>
        <h2>Open the address that `synapsis web` printed</h2>
        <p className="muted">
          Web mode only talks to a page that carries this run&apos;s secret token. Start it with <code>npm run web</code> (or <code>synapsis web</code>) and open the full address it prints, including the part after
          #.
        </p>
      </div>
    </div>
  );
}

/** Opens a pasted address: a new token in the fragment alone does not reload the page, so reload it. */
function openAddress(text: string): string | null {
  let next: URL;
  try {
    next = new URL(text.trim());
  } catch {
    return 'That is not an address: copy the whole line synapsis web printed, starting with http://';
  }
  if (!/(?:^#|&)token=[0-9a-f]{16,128}/.test(next.hash)) return 'That address has no #token=… part: copy the whole line synapsis web printed.';
  const here = new URL(window.location.href);
  window.location.assign(next.href);
  if (next.origin === here.origin && next.pathname === here.pathname) window.location.reload();
  return null;
}

/** Web mode after the server restarted: this tab's token is refused, so reconnecting cannot help. */
export function Restarted() {
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="onboarding">
      <div className="onboarding__card" data-testid="restarted" role="alert">
        <div className="brand brand--big">◆ Synapsis</div>
        <h2>Synapsis restarted — open the new address</h2>
        <p className="muted">
          Each start of <code>synapsis web</code> prints an address with a new secret key, and this tab still holds the old one. Paste the new address here (or into the address bar) to reload with it.
        </p>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            setError(openAddress(address));
          }}
        >
          <input className="grow" value={address} onChange={(e) => setAddress(e.target.value)} placeholder="http://127.0.0.1:4747/#token=…" aria-label="New address" aria-invalid={error !== null} aria-describedby={error ? 'new-address-error' : undefined} />
          <button type="submit" className="btn btn--primary" disabled={!address.trim()}>
            Reload with it
          </button>
        </form>
        {error && (
          <p className="error-line" id="new-address-error">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}

export function App() {
  useTheme();
  useShortcuts();
  const { client, view, setView, onboarding, staleToken, sidebarCollapsed, toggleSidebar } = useAppFields('client', 'view', 'setView', 'onboarding', 'staleToken', 'sidebarCollapsed', 'toggleSidebar');
  if (!client) return <NoConnection />;
  if (staleToken) return <Restarted />;
  if (onboarding) {
    return (
      <>
        <Onboarding />
        <Toasts />
      </>
    );
  }
  return (
    <div className={`app${sidebarCollapsed ? ' app--collapsed' : ''}`}>
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <span className="brand__mark" aria-hidden>
            ◆
          </span>
          <span className="brand__name"> Synapsis</span>
          <button type="button" className="sidebar__toggle" onClick={toggleSidebar} aria-expanded={!sidebarCollapsed} aria-label={sidebarCollapsed ? 'Expand the sidebar' : 'Collapse the sidebar'} title={sidebarCollapsed ? 'Expand the sidebar' : 'Collapse the sidebar'}>
            {sidebarCollapsed ? '»' : '«'}
          </button>
        </div>
        <ul>
          {NAV.map((n) => (
            <li key={n.view}>
              <button type="button" className={`nav${view === n.view ? ' nav--on' : ''}`} aria-current={view === n.view ? 'page' : undefined} onClick={() => setView(n.view)} title={`${n.label} (${n.keys})`}>
                <span className="nav__icon" aria-hidden>
                  {n.icon}
                </span>
                <span className="nav__label">{n.label}</span>
                <kbd className="nav__keys">{n.keys}</kbd>
              </button>
            </li>
          ))}
        </ul>
        <div className="sidebar__foot">
          <RestrictedMode />
          <IndexBadge />
          <div className="muted small sidebar__note">Offline · nothing leaves this machine</div>
        </div>
      </nav>
      <main className="main">
        <DemoBanner />
        {view === 'ask' && <AskView />}
        {view === 'search' && <SearchView />}
        {view === 'library' && <LibraryView />}
        {view === 'graph' && <GraphView />}
        {view === 'settings' && <SettingsView />}
      </main>
      <SourcePreview />
      <Toasts />
    </div>
  );
}
