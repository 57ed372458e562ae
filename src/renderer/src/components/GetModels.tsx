import { useEffect, useState } from 'react';
import type { CatalogEntry, DownloadProgress } from '../../../shared/contract.ts';
import { useApp, useAppFields } from '../store.ts';
import { FolderBrowser } from './FolderBrowser.tsx';
import { PathField } from './PathField.tsx';
import { formatBytes } from './text.tsx';

const ROLE: Record<CatalogEntry['role'], string> = { embed: 'meaning search', chat: 'written answers', rerank: 'finer ranking' };

/** One catalog model in a line: what it is for, its size ("~": approximate) and licence, and whether the file is pinned (to a revision of its repository too, where the address names one). */
function CatalogLine({ m }: { m: CatalogEntry }) {
  return (
    <li data-testid="catalog-line">
      <strong>{m.name}</strong> <span className="tag">{ROLE[m.role]}</span>{' '}
      <span className="muted small">
        {m.size_exact ? '' : '~'}
        {formatBytes(m.size_bytes)} · licence {m.license} · needs {Math.round(m.ram_bytes / 1024 ** 3) || '<1'} GB memory
        {m.verified ? (m.revision ? ` · pinned (revision ${m.revision.slice(0, 7)}, checked by sha256)` : ' · checked by sha256') : ''}
        {m.installed ? ' · installed' : !m.downloadable ? ' · import it from a folder' : ''}
      </span>
      {m.tokens_per_s !== null && <SpeedNote tokensPerS={m.tokens_per_s} measured={m.speed_measured} />}
    </li>
  );
}

/** A chat model's speed on this machine, in the time a person waits for an answer (about 300 tokens). */
export function SpeedNote({ tokensPerS, measured }: { tokensPerS: number; measured: boolean }) {
  const seconds = 300 / Math.max(tokensPerS, 0.01);
  const wait = seconds < 90 ? `${Math.max(1, Math.round(seconds))} s` : `${Math.round(seconds / 60)} min`;
  const slow = tokensPerS < 4;
  return (
    <div className={`small ${slow ? 'speed-note--slow' : 'muted'}`} data-testid="speed-note">
      {measured ? 'On this machine' : 'Estimated for this machine'}: about {tokensPerS < 10 ? tokensPerS.toFixed(1) : Math.round(tokensPerS)} tokens/s, an answer in about {wait}
      {slow ? ' — too slow to wait for: answers are quoted from your notes instead' : ''}.
    </div>
  );
}

/** `pinned`: the catalog pins the file's sha256 (otherwise its GGUF header is what is checked). */
function progressLine(d: DownloadProgress, pinned: boolean): string {
  const of = d.count > 1 ? ` (${d.index} of ${d.count})` : '';
  if (d.state === 'verifying') return `${d.file}${of}: checking ${pinned ? 'the sha256' : 'the file'}…`;
  if (d.state === 'registering') return `${d.file}${of}: checked; registering…`;
  if (d.state === 'done') return `${d.file}${of}: downloaded, checked and registered`;
  const pct = d.total_bytes > 0 ? Math.floor((d.downloaded_bytes / d.total_bytes) * 100) : 0;
  const rate = d.rate_bytes_per_s > 0 ? ` · ${formatBytes(d.rate_bytes_per_s)}/s` : '';
  return `${d.file}${of}: ${formatBytes(d.downloaded_bytes)} of ${formatBytes(d.total_bytes)} · ${pct}%${rate}`;
}

let ids = 0;

/**
 * The two ways to get models: "Download the recommended models (N MB)" (the host downloads, checks
 * and registers them, with progress, cancel and resume; absent with SYNAPSIS_OFFLINE set), and
 * "Import from a folder" (a USB stick: every .gguf in it).
 */
export function GetModels() {
  const { catalog, loadCatalog, download, downloadIds, downloadModels, cancelDownload, pickModelFolder, importModelFolder } = useAppFields(
    'catalog',
    'loadCatalog',
    'download',
    'downloadIds',
    'downloadModels',
    'cancelDownload',
    'pickModelFolder',
    'importModelFolder',
  );
  const web = useApp((s) => s.client?.shell === 'web');
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const [folder, setFolder] = useState('');
  const [folderError, setFolderError] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const [browsing, setBrowsing] = useState(false);
  const [errorId] = useState(() => `models-folder-error-${++ids}`);
  useEffect(() => {
    if (!catalog) void loadCatalog();
  }, [catalog, loadCatalog]);

  const importFrom = async (dir: string) => {
    if (!dir.trim()) return;
    setImporting(true);
    const refused = await importModelFolder(dir.trim());
    setImporting(false);
    setFolderError(refused);
    if (!refused) setFolder('');
    // Models arrived: why an earlier download stopped, and its resume, are no longer the news.
    if (useApp.getState().models.length > 0) setDownloadError(null);
  };
  const running = download !== null && ['downloading', 'verifying', 'registering'].includes(download.state);
  const start = async (which: string[]) => {
    setDownloadError(null);
    setDownloadError(await downloadModels(which));
  };
  const shown = catalog ? catalog.models.filter((m) => m.recommended) : [];
  // Why the last download stopped: from its request, or from its events (a download this window did not start).
  const failure = running ? null : (downloadError ?? (download && (download.state === 'failed' || download.state === 'cancelled') ? (download.error ?? null) : null));
  const stopped = failure !== null;
  const resumeIds = downloadIds.length > 0 ? downloadIds : (catalog?.recommended ?? []);

  return (
    <div className="get-models" data-testid="get-models">
      {catalog && shown.length > 0 && (
        <ul className="catalog-lines" aria-label="Recommended models">
          {shown.map((m) => (
            <CatalogLine key={m.id} m={m} />
          ))}
        </ul>
      )}
      {catalog?.offline && (
        <p className="muted small" data-testid="downloads-off">
          Downloads are turned off on this installation: import the models from a folder.
        </p>
      )}
      {catalog && !catalog.offline && catalog.recommended.length > 0 && !running && !stopped && (
        <button type="button" className="btn btn--primary" data-testid="download-recommended" onClick={() => void start(catalog.recommended)}>
          Download the recommended models ({formatBytes(catalog.recommended_bytes)})
        </button>
      )}
      {download && (running || download.state === 'done') && (
        <div className="download" data-testid="download-progress" aria-live="polite">
          <progress max={download.total_bytes || 1} value={download.downloaded_bytes} aria-label={`Downloading ${download.file}`} />
          <span className="small">{progressLine(download, catalog?.models.find((m) => m.id === download.id)?.verified ?? true)}</span>
          {running && download.state === 'downloading' && (
            <button type="button" className="btn btn--ghost" data-testid="download-cancel" onClick={() => void cancelDownload()}>
              Cancel
            </button>
          )}
        </div>
      )}
      {stopped && (
        <div className="download">
          <p className="error-line" role="alert" data-testid="download-error">
            {failure}
          </p>
          {catalog && !catalog.offline && resumeIds.length > 0 && (
            <button type="button" className="btn btn--ghost" data-testid="download-resume" onClick={() => void start(resumeIds)}>
              Resume the download
            </button>
          )}
        </div>
      )}
      <div className="folder-picker__wrap">
        <form
          className="folder-picker"
          onSubmit={(e) => {
            e.preventDefault();
            void importFrom(folder);
          }}
        >
          <PathField
            value={folder}
            onChange={(p) => {
              setFolder(p);
              setFolderError(null);
            }}
            browse={pickModelFolder}
            {...(web ? { webBrowse: () => setBrowsing((b) => !b) } : {})}
            label="Models folder"
            browseLabel="Browse for the folder of models"
            placeholder="/media/usb/models"
            browsePlaceholder="Choose the folder with the .gguf files (Browse…)"
            error={folderError}
            errorId={errorId}
          />
          <button type="submit" className="btn btn--ghost" disabled={!folder.trim() || importing} data-testid="import-folder">
            {importing ? 'Importing…' : 'Import from a folder'}
          </button>
        </form>
        {folderError && (
          <p className="error-line field-error" id={errorId} role="alert">
            {folderError}
          </p>
        )}
        {browsing && (
          <FolderBrowser
            start={folder}
            onChoose={(p) => {
              // Choosing the folder imports it, as choosing a notes folder adds it.
              setFolder(p);
              setFolderError(null);
              setBrowsing(false);
              void importFrom(p);
            }}
            onClose={() => setBrowsing(false)}
          />
        )}
      </div>
    </div>
  );
}
