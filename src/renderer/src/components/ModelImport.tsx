import { useState } from 'react';
import type { ModelRole } from '../../../shared/contract.ts';
import { useApp } from '../store.ts';

/** A GGUF file path to import into the models dir; the role is read from the file unless chosen. */
export function ModelImport({ withRole = false }: { withRole?: boolean }) {
  const importModel = useApp((s) => s.importModel);
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
      <input value={modelPath} onChange={(e) => setModelPath(e.target.value)} placeholder="/path/to/model.gguf" aria-label="Model file" spellCheck={false} />
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
