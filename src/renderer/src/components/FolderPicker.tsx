import { useState } from 'react';
import { useApp, useAppFields } from '../store.ts';
import { FolderBrowser } from './FolderBrowser.tsx';
import { PathField } from './PathField.tsx';

let pickerIds = 0;

/**
 * A folder's path (PathField: from the system dialog on the desktop; typed or browsed in the page in
 * web mode), patterns to skip, and "Add folder". Why a folder was refused shows under the field.
 */
export function FolderPicker({ onAdded, submitLabel = 'Add folder' }: { onAdded?: (path: string) => void; submitLabel?: string }) {
  const { addFolder, pickFolder } = useAppFields('addFolder', 'pickFolder');
  const web = useApp((s) => s.client?.shell === 'web');
  const [path, setPath] = useState('');
  const [exclude, setExclude] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [browsing, setBrowsing] = useState(false);
  const [errorId] = useState(() => `folder-error-${++pickerIds}`);
  const submit = async (p = path) => {
    if (!p.trim()) return;
    setBusy(true);
    const refused = await addFolder(p.trim(), { exclude: exclude.split(',').map((x) => x.trim()).filter(Boolean) });
    setBusy(false);
    setError(refused);
    if (!refused) {
      setPath('');
      onAdded?.(p.trim());
    }
  };
  return (
    <div className="folder-picker__wrap">
      <form
        className="folder-picker"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <PathField
          className="folder-picker__path"
          value={path}
          onChange={(p) => {
            setPath(p);
            setError(null);
          }}
          browse={pickFolder}
          {...(web ? { webBrowse: () => setBrowsing((b) => !b) } : {})}
          label="Folder path"
          placeholder="/home/you/notes"
          browsePlaceholder="Choose a folder with Browse…"
          error={error}
          errorId={errorId}
        />
        <input className="folder-picker__exclude" value={exclude} onChange={(e) => setExclude(e.target.value)} placeholder="skip: archive/**, *.log" aria-label="Patterns to skip" spellCheck={false} />
        <button type="submit" className="btn btn--primary" disabled={!path.trim() || busy}>
          {busy ? 'Adding…' : submitLabel}
        </button>
      </form>
      {error && (
        <p className="error-line field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
      {browsing && (
        <FolderBrowser
          start={path}
          onChoose={(p) => {
            // Choosing a folder is adding it: the field shows it until it is added (or why it was refused).
            setPath(p);
            setError(null);
            setBrowsing(false);
            void submit(p);
          }}
          onClose={() => setBrowsing(false)}
        />
      )}
    </div>
  );
}
