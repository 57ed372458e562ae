import type { StateCreator } from 'zustand';
import type { SourceLines } from '../../../shared/contract.ts';
import { formatLocator, parseLocator, type ParsedLocator } from '../../../shared/locator.ts';
import { kit, messageOf, type AppState } from './kit.ts';

/** Lines shown around a cited range in the preview. */
export const PREVIEW_CONTEXT_LINES = 12;

export interface Preview {
  locator: string;
  path: string;
  start: number;
  end: number;
  source: SourceLines | null;
  error: string | null;
  /** "Open in editor" failed: why, shown in the preview beside the offer to read the file here. */
  openError?: string | null;
  /** The whole file is shown (read here instead of in an editor), the cited lines still highlighted. */
  whole?: boolean;
}

/** The source preview: the lines behind a citation, and opening them in the user's editor. */
export interface SourceSlice {
  preview: Preview | null;
  openPreview(locator: string): Promise<void>;
  closePreview(): void;
  openInEditor(locator: string): Promise<void>;
  /** Shows the whole file in the preview: the in-app way to read it when no editor opens it. */
  readWholeFile(): Promise<void>;
  /** A file opened with the app: previewed when a known folder holds it. */
  openFile(path: string): void;
}

export const createSourceSlice: StateCreator<AppState, [], [], SourceSlice> = (set, get) => {
  const { client, sensitivity } = kit(get);
  return {
    preview: null,

    async openPreview(locator) {
      let parsed: ParsedLocator;
      try {
        parsed = parseLocator(locator);
      } catch (error) {
        set({ preview: { locator, path: locator, start: 1, end: 1, source: null, error: messageOf(error) } });
        return;
      }
      const { path, page } = parsed;
      const start = parsed.startLine ?? 1;
      const end = parsed.endLine ?? start;
      set({ preview: { locator, path, start, end, source: null, error: null } });
      try {
        const around = formatLocator({ path, page, startLine: Math.max(1, start - PREVIEW_CONTEXT_LINES), endLine: end + PREVIEW_CONTEXT_LINES });
        const source = await client().call('source/get', { locator: around, allow_sensitivity: sensitivity() });
        set((s) => (s.preview?.locator === locator ? { preview: { ...s.preview, source } } : {}));
      } catch (error) {
        set((s) => (s.preview?.locator === locator ? { preview: { ...s.preview, error: messageOf(error) } } : {}));
      }
    },
    closePreview() {
      set({ preview: null });
    },
    async openInEditor(locator) {
      try {
        const r = await client().call('source/open', { locator, allow_sensitivity: sensitivity() });
        set((s) => (s.preview?.locator === locator ? { preview: { ...s.preview, openError: null } } : {}));
        get().notify('info', `Opened ${r.file} with ${r.how}.`);
      } catch (error) {
        const why = messageOf(error);
        // The failure is told where the button is, with the file readable here instead.
        if (get().preview?.locator === locator) set((s) => ({ preview: s.preview && { ...s.preview, openError: why } }));
        else get().notify('error', `Could not open the file: ${why}`, { label: 'Read it here', run: () => void get().openPreview(locator) });
      }
    },
    async readWholeFile() {
      const preview = get().preview;
      if (!preview) return;
      try {
        const source = await client().call('source/get', { locator: preview.path, allow_sensitivity: sensitivity() });
        set((s) => (s.preview?.locator === preview.locator ? { preview: { ...s.preview, source, whole: true, openError: null } } : {}));
      } catch (error) {
        set((s) => (s.preview?.locator === preview.locator ? { preview: { ...s.preview, error: messageOf(error) } } : {}));
      }
    },
    openFile(file) {
      const root = get().roots.find((r) => file.startsWith(`${r.path}/`) || file.startsWith(`${r.path}\\`));
      if (root) {
        void get().openPreview(file.slice(root.path.length + 1).replace(/\\/g, '/'));
        return;
      }
      set({ view: 'library' });
      get().notify('info', `${file} is not in a folder Synapsis knows. Add its folder here to search and cite it.`);
    },
  };
};
