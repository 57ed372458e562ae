// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyResponseOf, CatalogEntry, DownloadProgress } from '../../../shared/contract.ts';
import { createClient, type SynapsisBridge } from '../../../shared/rpc.ts';
import { useApp } from '../store.ts';
import { GetModels } from './GetModels.tsx';

const initial = useApp.getState();
afterEach(() => {
  cleanup();
  useApp.setState(initial, true);
});

const MB = 1024 * 1024;
const model = (over: Partial<CatalogEntry>): CatalogEntry => ({
  id: 'e5', role: 'embed', name: 'multilingual-e5-small (Q4_0)', file: 'e5.gguf', languages: ['*'], size_bytes: 70 * MB, size_exact: true, license: 'MIT',
  good_for: 'search', ram_bytes: 1024 ** 3, recommended: true, downloadable: true, installed: false, verified: true, revision: null, tokens_per_s: null, speed_measured: false, ...over,
});
const CATALOG: AnyResponseOf<'models/catalog'> = {
  offline: false,
  models: [model({}), model({ id: 'qwen', role: 'chat', name: 'Qwen2.5 1.5B', file: 'qwen.gguf', size_bytes: 1024 * MB, license: 'Apache-2.0', ram_bytes: 4 * 1024 ** 3 }), model({ id: 'big', recommended: false })],
  recommended: ['e5', 'qwen'],
  recommended_bytes: 1094 * MB,
  download: null,
};

/** A bridge that records requests; `answers` gives each method's result, or an Error to refuse it. */
function bridge(shell: SynapsisBridge['shell'], answers: Record<string, unknown>) {
  const calls: { method: string; params: unknown }[] = [];
  const b: SynapsisBridge = {
    shell,
    request: async (method, params) => {
      calls.push({ method, params });
      const answer = answers[method];
      if (answer instanceof Error) return { ok: false, error: { code: 'E_SYN_MODEL_UNAVAILABLE', message: answer.message, retryable: false } };
      return method in answers ? { ok: true, result: answer } : { ok: true, result: [] };
    },
    cancel() {},
    on: () => () => {},
    onConnection: () => () => {},
  };
  useApp.setState({ client: createClient(b) });
  return calls;
}

const progress = (over: Partial<DownloadProgress>): DownloadProgress => ({ id: 'e5', file: 'e5.gguf', state: 'downloading', downloaded_bytes: 7 * MB, total_bytes: 70 * MB, rate_bytes_per_s: 2 * MB, index: 1, count: 2, ...over });

describe('GetModels', () => {
  it('offers the recommended models with size and licence, and downloads them with live progress and cancel', async () => {
    let finish: (v: unknown) => void = () => {};
    const pending = new Promise((resolve) => (finish = resolve));
    const calls = bridge('web', { 'models/catalog': CATALOG, 'models/cancelDownload': { cancelled: true }, 'health/get': null });
    const b = useApp.getState().client!;
    // models/download stays open until the test lets it finish, as a real download does.
    const request = b.call.bind(b);
    b.call = ((method: string, params: unknown) => (method === 'models/download' ? (calls.push({ method, params }), pending) : request(method as never, params as never))) as typeof b.call;
    render(<GetModels />);
    const lines = await screen.findAllByTestId('catalog-line');
    expect(lines.map((l) => l.textContent)).toEqual([
      'multilingual-e5-small (Q4_0) meaning search 70.0 MB · licence MIT · needs 1 GB memory · checked by sha256',
      'Qwen2.5 1.5B written answers 1.0 GB · licence Apache-2.0 · needs 4 GB memory · checked by sha256',
    ]);
    const button = screen.getByTestId('download-recommended');
    expect(button.textContent).toBe('Download the recommended models (1.1 GB)');
    await act(async () => void fireEvent.click(button));
    expect(calls.find((c) => c.method === 'models/download')?.params).toEqual({ ids: ['e5', 'qwen'] });
    act(() => useApp.setState({ download: progress({}) }));
    expect(screen.getByTestId('download-progress').querySelector('span')!.textContent).toBe('e5.gguf (1 of 2): 7.0 MB of 70.0 MB · 10% · 2.0 MB/s');
    expect(screen.queryByTestId('download-recommended')).toBeNull();
    await act(async () => void fireEvent.click(screen.getByTestId('download-cancel')));
    expect(calls.map((c) => c.method)).toContain('models/cancelDownload');
    act(() => useApp.setState({ download: progress({ state: 'verifying', downloaded_bytes: 70 * MB }) }));
    expect(screen.getByTestId('download-progress').textContent).toBe('e5.gguf (1 of 2): checking the sha256…');
    expect(screen.queryByTestId('download-cancel')).toBeNull();
    finish({ models: [], restarted: true });
  });

  it('names why a download failed and resumes it with the same models', async () => {
    const calls = bridge('web', { 'models/catalog': CATALOG, 'models/download': new Error('Cannot download e5.gguf: No network connection to huggingface.co (ENOTFOUND): check the connection, or import the model from a folder') });
    render(<GetModels />);
    await act(async () => void fireEvent.click(await screen.findByTestId('download-recommended')));
    await waitFor(() => expect(screen.getByTestId('download-error').textContent).toMatch(/No network connection to huggingface\.co \(ENOTFOUND\)/));
    expect(screen.getByRole('alert')).toBe(screen.getByTestId('download-error'));
    await act(async () => void fireEvent.click(screen.getByTestId('download-resume')));
    expect(calls.filter((c) => c.method === 'models/download').map((c) => c.params)).toEqual([{ ids: ['e5', 'qwen'] }, { ids: ['e5', 'qwen'] }]);
  });

  it('shows a failure reported only by events (a download another window started), with Resume', async () => {
    bridge('web', { 'models/catalog': { ...CATALOG, download: progress({ state: 'failed', error: 'e5.gguf failed its checksum' }) } });
    render(<GetModels />);
    await waitFor(() => expect(screen.getByTestId('download-error').textContent).toBe('e5.gguf failed its checksum'));
    expect(screen.getByTestId('download-resume')).toBeTruthy();
  });

  it('shows the public embedder with its size as approximate and the revision it is pinned to', async () => {
    const q8 = model({ id: 'e5-q8', name: 'multilingual-e5-small (Q8_0)', file: 'multilingual-e5-small-q8_0.gguf', size_bytes: 125_000_000, size_exact: false, revision: 'b6cac9615d4ecce28d7f22539b7322d695fc2886' });
    bridge('web', { 'models/catalog': { ...CATALOG, models: [model({ recommended: false, downloadable: false }), q8], recommended: ['e5-q8'], recommended_bytes: 125_000_000 } });
    render(<GetModels />);
    expect((await screen.findAllByTestId('catalog-line')).map((l) => l.textContent)).toEqual([
      'multilingual-e5-small (Q8_0) meaning search ~119.2 MB · licence MIT · needs 1 GB memory · pinned (revision b6cac96, checked by sha256)',
    ]);
    expect(screen.getByTestId('download-recommended').textContent).toBe('Download the recommended models (119.2 MB)');
  });

  it('with downloads turned off offers the folder only', async () => {
    bridge('web', { 'models/catalog': { ...CATALOG, offline: true, recommended: [], recommended_bytes: 0, models: CATALOG.models.map((m) => ({ ...m, downloadable: false })) } });
    render(<GetModels />);
    await screen.findByTestId('downloads-off');
    expect(screen.queryByTestId('download-recommended')).toBeNull();
    expect((await screen.findAllByTestId('catalog-line'))[0]!.textContent).toMatch(/import it from a folder$/);
    expect(screen.getByTestId('import-folder')).toBeTruthy();
  });

  it('in the desktop app imports the folder picked in the system dialog, and says what was skipped', async () => {
    const calls = bridge('electron', {
      'models/catalog': CATALOG,
      'app/pickModelFolder': { path: '/media/usb/models' },
      'models/importFolder': { added: [{ id: 'a', name: 'e5', role: 'embed' }], skipped: [{ file: '/media/usb/models/notes.gguf', reason: 'Not a GGUF model file (bad magic bytes)' }], restarted: true },
    });
    render(<GetModels />);
    const field = screen.getByLabelText('Models folder') as HTMLInputElement;
    expect(field.readOnly).toBe(true);
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Browse for the folder of models' })));
    await waitFor(() => expect(field.value).toBe('/media/usb/models'));
    await act(async () => void fireEvent.click(screen.getByTestId('import-folder')));
    expect(calls.find((c) => c.method === 'models/importFolder')?.params).toEqual({ path: '/media/usb/models' });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Imported 1; skipped notes.gguf: Not a GGUF model file (bad magic bytes)'));
  });
});
