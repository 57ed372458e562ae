import { useState } from 'react';
import { useApp } from '../store.ts';

/**
 * A path field and "Add folder". The desktop app fills the field only from the system's folder
 * dialog ("Browse…"): its engine adds no folder the user did not pick there. Web mode: type or
 * paste the path.
 */
export function FolderPicker({ onAdded, submitLabel = 'Add folder' }: { onAdded?: (path: string) => void; submitLabel?: string }) {
  const { addFolder, pickFolder, client } = useApp();
  const desktop = client?.shell === 'electron';
  const [path, setPath] = useState('');
  const [exclude, setExclude] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (p = path) => {
    if (!p.trim()) return;
    setBusy(true);
    const ok = await addFolder(p.trim(), { exclude: exclude.split(',').map((x) => x.trim()).filter(Boolean) });
    setBusy(false);
    if (ok) {
      setPath('');
      onAdded?.(p.trim());
    }
  };
  return (
    <form
      className="folder-picker"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <input
        className="folder-picker__path"
        value={path}
        onChange={(e) => setPath(e.target.value)}
        readOnly={desktop}
        placeholder={desktop ? 'Choose a folder with Browse…' : '/home/you/notes'}
        aria-label="Folder path"
        spellCheck={false}
      />
      {desktop && (
        <button
          type="button"
          className="btn btn--ghost"
          onClick={async () => {
            const picked = await pickFolder();
            if (picked) setPath(picked);
          }}
        >
          Browse…
        </button>
      )}
      <input className="folder-picker__exclude" value={exclude} onChange={(e) => setExclude(e.target.value)} placeholder="skip: archive/**, *.log" aria-label="Patterns to skip" spellCheck={false} />
      <button type="submit" className="btn btn--primary" disabled={!path.trim() || busy}>
        {busy ? 'Adding…' : submitLabel}
      </button>
    </form>
  );
}
