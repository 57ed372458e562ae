import { useState } from 'react';
import type { ModelRole } from '../../../shared/contract.ts';
import { useApp } from '../store.ts';

/**
 * A GGUF file path to import into the models dir; the role is read from the file unless chosen. The
 * desktop app takes the path only from the system's file dialog ("Browse…"); web mode: type it.
 */
export function ModelImport({ withRole = false }: { withRole?: boolean }) {
  const importModel = useApp((s) => s.importModel);
  const pickModelFile = useApp((s) => s.pickModelFile);
  const desktop = useApp((s) => s.client?.shell === 'electron');
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
      <input
        value={modelPath}
        onChange={(e) => setModelPath(e.target.value)}
        readOnly={desktop}
        placeholder={desktop ? 'Choose a .gguf file with Browse…' : '/path/to/model.gguf'}
        aria-label="Model file"
        spellCheck={false}
      />
      {desktop && (
        <button
          type="button"
          className="btn btn--ghost"
          onClick={async () => {
            const picked = await pickModelFile();
            if (picked) setModelPath(picked);
          }}
        >
          Browse…
        </button>
      )}
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
