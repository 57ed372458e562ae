import type { StateCreator } from 'zustand';
import type { EmbedsResult, RelatedResult, SourceLines } from '../../../shared/contract.ts';
import { formatLocator, parseLocator, type ParsedLocator } from '../../../shared/locator.ts';
import { isMarkdownPath } from '../markdown.ts';
import { kit, messageOf, type AppState } from './kit.ts';

/** Lines shown around a cited range in the lines view. */
export const PREVIEW_CONTEXT_LINES = 12;
/** Related notes the pane's rail lists. */
export const RELATED_SHOWN = 8;

export type ReaderView = 'note' | 'lines';

export interface Preview {
  locator: string;
  path: string;
  start: number;
  end: number;
  /** Whether the locator names lines (a citation, a result); a note opened by name has none. */
  cited: boolean;
  /** The lines the lines view shows: around the cited ones, or the whole file. */
  source: SourceLines | null;
  /** The whole note, for the rendered view (markdown only; null until loaded or for other files). */
  note: SourceLines | null;
  /** Rendered markdown or numbered lines; markdown opens rendered. */
  view: ReaderView;
  related: RelatedResult | null;
  relatedError: string | null;
  /** What the note embeds (`![[Note]]`, pictures), resolved by the engine (markdown only; null until loaded). */
  embeds?: EmbedsResult | null;
  error: string | null;
  /** "Open in editor" failed: why, shown in the pane beside the offer to read the file here. */
  openError?: string | null;
  /** The whole file is in the lines view (read here instead of in an editor), the cited lines still highlighted. */
  whole?: boolean;
  /** The heading a [[Note#Heading]] link named: scrolled to when no lines are cited. */
  anchor?: string | null;
}

/** The reading pane: a note rendered or its lines, the cited ones highlighted, related notes, and opening it in the user's editor. */
export interface SourceSlice {
  preview: Preview | null;
  /** Notes the pane showed before the current one, for Back (cleared when the pane opens afresh). */
  previewHistory: string[];
  openPreview(locator: string): Promise<void>;
  /** Opens another note in the pane (a wikilink, a related note), keeping the current one for Back; `anchor`: a heading to scroll to. */
  followInPreview(locator: string, anchor?: string): Promise<void>;
  previewBack(): Promise<void>;
  setPreviewView(view: ReaderView): void;
  closePreview(): void;
  /** Opens the file in the user's editor, or (`obsidian`) the note in Obsidian when its folder is an Obsidian vault. */
  openInEditor(locator: string, app?: 'editor' | 'obsidian'): Promise<void>;
  /** Shows the whole file in the lines view: the in-app way to read it when no editor opens it. */
  readWholeFile(): Promise<void>;
  /** A file opened with the app: previewed when a known folder holds it. */
  openFile(path: string): void;
}

export const createSourceSlice: StateCreator<AppState, [], [], SourceSlice> = (set, get) => {
  const { client, sensitivity } = kit(get);
  /** Changes the pane only while it still shows `locator` (a later open supersedes a slow answer). */
  const update = (locator: string, change: (p: Preview) => Partial<Preview>) => set((s) => (s.preview?.locator === locator ? { preview: { ...s.preview, ...change(s.preview) } } : {}));

  const load = async (locator: string, anchor: string | null = null) => {
    let parsed: ParsedLocator;
    try {
      parsed = parseLocator(locator);
    } catch (error) {
      set({ preview: { locator, path: locator, start: 1, end: 1, cited: false, source: null, note: null, view: 'lines', related: null, relatedError: null, error: messageOf(error) } });
      return;
    }
    const { path, page } = parsed;
    const cited = parsed.startLine !== null;
    const start = parsed.startLine ?? 1;
    const end = parsed.endLine ?? start;
    const markdown = isMarkdownPath(path) && !page;
    set({ preview: { locator, path, start, end, cited, source: null, note: null, view: markdown ? 'note' : 'lines', related: null, relatedError: null, error: null, anchor } });
    const allow = sensitivity();
    const lines = async () => {
      try {
        const around = cited ? formatLocator({ path, page, startLine: Math.max(1, start - PREVIEW_CONTEXT_LINES), endLine: end + PREVIEW_CONTEXT_LINES }) : path;
        const source = await client().call('source/get', { locator: around, allow_sensitivity: allow });
        update(locator, () => ({ source, ...(cited ? {} : { whole: true }) }));
      } catch (error) {
        update(locator, () => ({ error: messageOf(error) }));
      }
    };
    const note = async () => {
      if (!markdown) return;
      try {
        const whole = await client().call('source/get', { locator: path, allow_sensitivity: allow });
        // Cited lines past the lines served at once are shown as lines, where they are.
        update(locator, (p) => ({ note: whole, ...(p.cited && whole.truncated && p.start > whole.end_line ? { view: 'lines' as const } : {}) }));
      } catch (error) {
        update(locator, () => ({ error: messageOf(error) }));
      }
    };
    const related = async () => {
      try {
        const r = await client().call('source/related', { locator: path, k: RELATED_SHOWN, allow_sensitivity: allow });
        update(locator, () => ({ related: r }));
      } catch (error) {
        update(locator, () => ({ relatedError: messageOf(error) }));
      }
    };
    const embeds = async () => {
      if (!markdown) return;
      try {
        const r = await client().call('source/embeds', { locator: path, allow_sensitivity: allow });
        if (r.embeds.length > 0) update(locator, () => ({ embeds: r }));
      } catch {
        // Embeds are shown when they can be: without them the note reads with its ![[links]] as links.
      }
    };
    await Promise.all([lines(), note(), related(), embeds()]);
  };

  return {
    preview: null,
    previewHistory: [],

    async openPreview(locator) {
      set({ previewHistory: [] });
      await load(locator);
    },
    async followInPreview(locator, anchor) {
      const current = get().preview?.locator;
      if (current === locator && !anchor) return;
      if (current) set((s) => ({ previewHistory: [...s.previewHistory, current].slice(-50) }));
      await load(locator, anchor ?? null);
    },
    async previewBack() {
      const history = get().previewHistory;
      const previous = history.at(-1);
      if (!previous) return;
      set({ previewHistory: history.slice(0, -1) });
      await load(previous);
    },
    setPreviewView(view) {
      set((s) => (s.preview ? { preview: { ...s.preview, view } } : {}));
    },
    closePreview() {
      set({ preview: null, previewHistory: [] });
    },
    async openInEditor(locator, app = 'editor') {
      try {
        const r = await client().call('source/open', { locator, allow_sensitivity: sensitivity(), app });
        update(locator, () => ({ openError: null }));
        get().notify('info', app === 'obsidian' ? `Opened ${r.file} in Obsidian.` : `Opened ${r.file} with ${r.how}.`);
      } catch (error) {
        const why = messageOf(error);
        // The failure is told where the button is, with the file readable here instead.
        if (get().preview?.locator === locator) update(locator, () => ({ openError: why }));
        else get().notify('error', `Could not open the file: ${why}`, { label: 'Read it here', run: () => void get().openPreview(locator) });
      }
    },
    async readWholeFile() {
      const preview = get().preview;
      if (!preview) return;
      try {
        const source = await client().call('source/get', { locator: preview.path, allow_sensitivity: sensitivity() });
        update(preview.locator, () => ({ source, whole: true, openError: null, view: 'lines' }));
      } catch (error) {
        update(preview.locator, () => ({ error: messageOf(error) }));
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
