/**
 * The UI's state (zustand): what the engine reported, what the user is doing, and the actions that
 * call the engine through the typed client. One store joins a slice per view (slices/); components
 * select the fields they show, so a streamed answer token re-renders only what shows the answer.
 * Nothing else talks to the engine.
 */
import { create } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { createAskSlice } from './slices/ask.ts';
import { createConnectionSlice } from './slices/connection.ts';
import { createDemoSlice } from './slices/demo.ts';
import { createGraphSlice } from './slices/graph.ts';
import type { AppState } from './slices/kit.ts';
import { createLibrarySlice } from './slices/library.ts';
import { createSearchSlice } from './slices/search.ts';
import { createSettingsSlice } from './slices/settings.ts';
import { createShellSlice } from './slices/shell.ts';
import { createSourceSlice } from './slices/source.ts';
import { createThreadsSlice } from './slices/threads.ts';

export type { AnswerStage, Asking } from './slices/ask.ts';
export { REFRESH_AFTER_INDEX_MS } from './slices/connection.ts';
export type { GraphState } from './slices/graph.ts';
export type { AppState } from './slices/kit.ts';
export type { SearchFilters } from './slices/search.ts';
export type { RetrievalChoice, Theme } from './slices/settings.ts';
export type { Toast, View } from './slices/shell.ts';
export { PREVIEW_CONTEXT_LINES, type Preview } from './slices/source.ts';

export const useApp = create<AppState>()((...a) => ({
  ...createConnectionSlice(...a),
  ...createShellSlice(...a),
  ...createLibrarySlice(...a),
  ...createSettingsSlice(...a),
  ...createAskSlice(...a),
  ...createSearchSlice(...a),
  ...createSourceSlice(...a),
  ...createGraphSlice(...a),
  ...createDemoSlice(...a),
  ...createThreadsSlice(...a),
}));

/** The named fields of the store; the component re-renders only when one of them changes (shallow compare). */
export function useAppFields<K extends keyof AppState>(...keys: K[]): Pick<AppState, K> {
  return useApp(useShallow((s) => Object.fromEntries(keys.map((k) => [k, s[k]])) as Pick<AppState, K>));
}
