import { useEffect, useState } from 'react';
import { useAppFields } from '../store.ts';
import type { FolderListing } from '../slices/library.ts';

/** Web mode's folder picker: walk the folders from the home folder and choose one (there is no system dialog in a browser). */
export function FolderBrowser({ start, onChoose, onClose }: { start?: string; onChoose: (path: string) => void; onClose: () => void }) {
  const { listFolders } = useAppFields('listFolders');
  const [listing, setListing] = useState<FolderListing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const go = async (path?: string) => {
    try {
      setListing(await listFolders(path));
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      // A typed path that is not a folder: start from home instead.
      if (path && !listing) setListing(await listFolders().catch(() => null));
    }
  };
  useEffect(() => {
    void go(start?.trim() || undefined);
    // Only on open: later moves go through the buttons.
  }, []);
  return (
    <div className="folder-browser" role="group" aria-label="Choose a folder" data-testid="folder-browser">
      <div className="folder-browser__bar">
        <button type="button" className="btn btn--ghost" disabled={!listing?.parent} onClick={() => listing?.parent && void go(listing.parent)} aria-label="Up one folder">
          ↑ Up
        </button>
        <span className="mono folder-browser__path" title={listing?.path}>
          {listing?.path ?? 'Loading…'}
        </span>
        <button type="button" className="btn btn--primary" disabled={!listing} onClick={() => listing && onChoose(listing.path)}>
          Choose this folder
        </button>
        <button type="button" className="btn btn--icon" onClick={onClose} aria-label="Close the folder list">
          ×
        </button>
      </div>
      {error && <p className="error-line">{error}</p>}
      {listing && (
        <ul className="folder-browser__list" aria-label="Folders">
          {listing.folders.length === 0 && <li className="muted small">No folders inside.</li>}
          {listing.folders.map((name) => (
            <li key={name}>
              <button type="button" className="folder-browser__item" onClick={() => void go(`${listing.path.replace(/[\\/]$/, '')}/${name}`)}>
                ▸ {name}
              </button>
            </li>
          ))}
          {listing.truncated && <li className="muted small">More folders than shown: type the path instead.</li>}
        </ul>
      )}
    </div>
  );
}
