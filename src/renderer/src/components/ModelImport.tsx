import { useState } from 'react';
import type { ModelRole } from '../../../shared/contract.ts';
import { useAppFields } from '../store.ts';
import { PathField } from './PathField.tsx';

/**
 * A GGUF file path to import into the models dir (PathField: from the system dialog on the desktop,
 * typed in web mode); the role is read from the file unless chosen.
 */
let importIds = 0;

export function ModelImport({ withRole = false }: { withRole?: boolean }) {
  const { importModel, pickModelFile } = useAppFields('importModel', 'pickModelFile');
  const [modelPath, setModelPath] = useState('');
  const [role, setRole] = useState<'' | ModelRole>('');
  const [error, setError] = useState<string | null>(null);
  const [errorId] = useState(() => `model-error-${++importIds}`);
  return (
    <div className="folder-picker__wrap">
    <form
      className="folder-picker"
      onSubmit={async (e) => {
        e.preventDefault();
        const refused = await importModel(modelPath.trim(), role || undefined);
        setError(refused);
        if (!refused) setModelPath('');
      }}
    >
      <PathField
        value={modelPath}
        onChange={(p) => {
          setModelPath(p);
          setError(null);
        }}
        browse={pickModelFile}
        label="Model file"
        placeholder="/path/to/model.gguf"
        browsePlaceholder="Choose a .gguf file with Browse…"
        error={error}
        errorId={errorId}
      />
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
    {error && (
      <p className="error-line field-error" id={errorId} role="alert">
        {error}
      </p>
    )}
    </div>
  );
}
