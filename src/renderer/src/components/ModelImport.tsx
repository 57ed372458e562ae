import { useState } from 'react';
import type { ModelRole } from '../../../shared/contract.ts';
import { useAppFields } from '../store.ts';
import { PathField } from './PathField.tsx';

/**
 * A GGUF file path to import into the models dir (PathField: from the system dialog on the desktop,
 * typed in web mode); the role is read from the file unless chosen.
 */
export function ModelImport({ withRole = false }: { withRole?: boolean }) {
  const { importModel, pickModelFile } = useAppFields('importModel', 'pickModelFile');
  const [modelPath, setModelPath] = useState('');
  const [role, setRole] = useState<'' | ModelRole>('');
  return (
    <form
      className="folder-picker"
      onSubmit={async (e) => {
        e.preventDefault();
        if (await importModel(modelPath.trim(), role || undefined)) setModelPath('');
      }}
    >
      <PathField value={modelPath} onChange={setModelPath} browse={pickModelFile} label="Model file" placeholder="/path/to/model.gguf" browsePlaceholder="Choose a .gguf file with Browse…" />
      {withRole && (
        <select value={role} onChange={(e) => setRole(e.target.value as '' | ModelRole)} aria-label="Model role">
          <option value="">role from the file</option>
          <option value="embed">embedding</option>
          <option value="chat">chat</option>
          <option value="rerank">rerank</option>
        </select>
      )}
      <button type="submit" className="btn btn--ghost" disabled={!modelPath.trim()}>
        Import model
      </button>
    </form>
  );
}
