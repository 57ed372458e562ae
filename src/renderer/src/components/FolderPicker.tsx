import { useState } from 'react';
import { useAppFields } from '../store.ts';
import { PathField } from './PathField.tsx';

/** A folder's path (PathField: from the system dialog on the desktop, typed in web mode), patterns to skip, and "Add folder". */
export function FolderPicker({ onAdded, submitLabel = 'Add folder' }: { onAdded?: (path: string) => void; submitLabel?: string }) {
  const { addFolder, pickFolder } = useAppFields('addFolder', 'pickFolder');
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
      <PathField className="folder-picker__path" value={path} onChange={setPath} browse={pickFolder} label="Folder path" placeholder="/home/you/notes" browsePlaceholder="Choose a folder with Browse…" />
      <input className="folder-picker__exclude" value={exclude} onChange={(e) => setExclude(e.target.value)} placeholder="skip: archive/**, *.log" aria-label="Patterns to skip" spellCheck={false} />
      <button type="submit" className="btn btn--primary" disabled={!path.trim() || busy}>
        {busy ? 'Adding…' : submitLabel}
      </button>
    </form>
  );
}
