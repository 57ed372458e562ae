// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type SynapsisBridge } from '../../../shared/rpc.ts';
import { useApp } from '../store.ts';
import { FolderPicker } from './FolderPicker.tsx';
import { ModelImport } from './ModelImport.tsx';

const initial = useApp.getState();
afterEach(() => {
  cleanup();
  useApp.setState(initial, true);
});

/** A bridge that records every request and answers the few the pickers need. */
function bridge(shell: SynapsisBridge['shell']) {
  const calls: { method: string; params: unknown }[] = [];
  const answers: Record<string, unknown> = {
    'app/pickFolder': { path: '/home/u/picked notes' },
    'app/pickModelFile': { path: '/home/u/models/e5.gguf' },
    'index/addRoot': { id: 1, path: '/home/u/picked notes', include: [], exclude: [], added_at: '' },
    'models/add': { name: 'e5', role: 'embed' },
  };
  const b: SynapsisBridge = {
    shell,
    request: async (method, params) => {
      calls.push({ method, params });
      return method in answers ? { ok: true, result: answers[method] } : { ok: false, error: { code: 'E_SYN_BAD_REQUEST', message: method, retryable: false } };
    },
    cancel() {},
    on: () => () => {},
    onConnection: () => () => {},
  };
  useApp.setState({ client: createClient(b) });
  return calls;
}

describe('FolderPicker', () => {
  it('in the desktop app takes the folder only from the system dialog, then adds that exact path', async () => {
    const calls = bridge('electron');
    render(<FolderPicker />);
    const field = screen.getByLabelText('Folder path') as HTMLInputElement;
    expect(field.readOnly).toBe(true);
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Browse…' })));
    await waitFor(() => expect(field.value).toBe('/home/u/picked notes'));
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Add folder' })));
    await waitFor(() => expect(calls.find((c) => c.method === 'index/addRoot')?.params).toMatchObject({ path: '/home/u/picked notes' }));
  });

  it('in web mode takes a typed path, or one browsed in the page (never the system dialog)', async () => {
    const calls = bridge('web');
    render(<FolderPicker />);
    const field = screen.getByLabelText('Folder path') as HTMLInputElement;
    expect(field.readOnly).toBe(false);
    fireEvent.change(field, { target: { value: '/srv/notes' } });
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Add folder' })));
    await waitFor(() => expect(calls.find((c) => c.method === 'index/addRoot')?.params).toMatchObject({ path: '/srv/notes' }));
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Browse…' })));
    await waitFor(() => expect(calls.map((c) => c.method)).toContain('app/listFolders'));
    expect(calls.map((c) => c.method)).not.toContain('app/pickFolder');
  });

  it('shows why a folder was refused under the field, not as a toast', async () => {
    const refusing: SynapsisBridge = {
      shell: 'web',
      request: async () => ({ ok: false, error: { code: 'E_SYN_NOT_FOUND', message: 'No such folder: /nope', retryable: false } }),
      cancel() {},
      on: () => () => {},
      onConnection: () => () => {},
    };
    useApp.setState({ client: createClient(refusing) });
    render(<FolderPicker />);
    fireEvent.change(screen.getByLabelText('Folder path'), { target: { value: '/nope' } });
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Add folder' })));
    expect((await screen.findByRole('alert')).textContent).toBe('No such folder: /nope');
    expect(screen.getByLabelText('Folder path').getAttribute('aria-invalid')).toBe('true');
    expect(useApp.getState().toasts).toEqual([]);
  });
});

describe('ModelImport', () => {
  it('in the desktop app picks the model file in the system dialog and imports that path', async () => {
    const calls = bridge('electron');
    render(<ModelImport />);
    const field = screen.getByLabelText('Model file') as HTMLInputElement;
    expect(field.readOnly).toBe(true);
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Browse…' })));
    await waitFor(() => expect(field.value).toBe('/home/u/models/e5.gguf'));
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Import model' })));
    await waitFor(() => expect(calls.find((c) => c.method === 'models/add')?.params).toEqual({ path: '/home/u/models/e5.gguf' }));
    expect(calls.map((c) => c.method)).toContain('app/pickModelFile');
  });

  it('in web mode takes a typed path and offers no dialog', async () => {
    const calls = bridge('web');
    render(<ModelImport />);
    expect(screen.queryByRole('button', { name: 'Browse…' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Model file'), { target: { value: '/srv/m.gguf' } });
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Import model' })));
    await waitFor(() => expect(calls.find((c) => c.method === 'models/add')?.params).toEqual({ path: '/srv/m.gguf' }));
  });
});
