import type { StateCreator } from 'zustand';
import { storage, type AppState } from './kit.ts';

export type View = 'ask' | 'search' | 'library' | 'graph' | 'settings';

export interface Toast {
  id: number;
  kind: 'error' | 'info';
  text: string;
  /** A button on the toast that does what the text asks for. */
  action?: ToastAction;
}

export interface ToastAction {
  label: string;
  run: () => void;
}

/** At most this many toasts show at once; the oldest gives way. */
export const MAX_TOASTS = 3;

/** The window around the views: which view is open, the toasts, and onboarding. */
export interface ShellSlice {
  view: View;
  toasts: Toast[];
  onboardingDone: boolean;
  /** Decided at the first health report: an empty workspace that never finished onboarding starts with it. */
  onboarding: boolean | null;
  /** The sidebar shows icons only (remembered; narrow windows start that way). */
  sidebarCollapsed: boolean;
  toggleSidebar(): void;
  setView(view: View): void;
  finishOnboarding(): void;
  /** Shows a toast; the same message again replaces the one shown (and its timer) instead of stacking. */
  notify(kind: Toast['kind'], text: string, action?: ToastAction): void;
  dismissToast(id: number): void;
}

/** Below this window width the sidebar starts collapsed, leaving the views the room. */
export const NARROW_WINDOW_PX = 900;

let toastId = 0;
const toastTimers = new Map<number, ReturnType<typeof setTimeout>>();

export const createShellSlice: StateCreator<AppState, [], [], ShellSlice> = (set, get) => ({
  view: 'ask',
  toasts: [],
  onboardingDone: storage.get('onboardingDone', false),
  onboarding: null,
  sidebarCollapsed: storage.get('sidebarCollapsed', typeof window !== 'undefined' && window.innerWidth > 0 && window.innerWidth < NARROW_WINDOW_PX),

  toggleSidebar() {
    const sidebarCollapsed = !get().sidebarCollapsed;
    storage.set('sidebarCollapsed', sidebarCollapsed);
    set({ sidebarCollapsed });
  },
  setView(view) {
    set({ view });
    if (view === 'graph' && !get().graph.overview) void get().loadOverview();
    if (view === 'settings' && !get().system) void get().loadSystem();
  },
  finishOnboarding() {
    storage.set('onboardingDone', true);
    set({ onboardingDone: true, onboarding: false });
  },
  notify(kind, text, action) {
    const id = ++toastId;
    for (const same of get().toasts.filter((t) => t.kind === kind && t.text === text)) {
      clearTimeout(toastTimers.get(same.id));
      toastTimers.delete(same.id);
    }
    set((s) => ({ toasts: [...s.toasts.filter((t) => !(t.kind === kind && t.text === text)), { id, kind, text, ...(action ? { action } : {}) }].slice(-MAX_TOASTS) }));
    // A toast with a button waits longer: it asks for something.
    toastTimers.set(
      id,
      setTimeout(() => get().dismissToast(id), action ? 15000 : kind === 'error' ? 9000 : 4000),
    );
  },
  dismissToast(id) {
    clearTimeout(toastTimers.get(id));
    toastTimers.delete(id);
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
});
