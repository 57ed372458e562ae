import type { StateCreator } from 'zustand';
import { storage, type AppState } from './kit.ts';

export type View = 'ask' | 'search' | 'library' | 'graph' | 'settings';

export interface Toast {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

/** The window around the views: which view is open, the toasts, and onboarding. */
export interface ShellSlice {
  view: View;
  toasts: Toast[];
  onboardingDone: boolean;
  /** Decided at the first health report: an empty workspace that never finished onboarding starts with it. */
  onboarding: boolean | null;
  setView(view: View): void;
  finishOnboarding(): void;
  notify(kind: Toast['kind'], text: string): void;
  dismissToast(id: number): void;
}

let toastId = 0;

export const createShellSlice: StateCreator<AppState, [], [], ShellSlice> = (set, get) => ({
  view: 'ask',
  toasts: [],
  onboardingDone: storage.get('onboardingDone', false),
  onboarding: null,

  setView(view) {
    set({ view });
    if (view === 'graph' && !get().graph.overview) void get().loadOverview();
    if (view === 'settings' && !get().system) void get().loadSystem();
  },
  finishOnboarding() {
    storage.set('onboardingDone', true);
    set({ onboardingDone: true, onboarding: false });
  },
  notify(kind, text) {
    const id = ++toastId;
    set((s) => ({ toasts: [...s.toasts.slice(-3), { id, kind, text }] }));
    setTimeout(() => get().dismissToast(id), kind === 'error' ? 9000 : 4000);
  },
  dismissToast(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
});
