import type { StateCreator } from 'zustand';
import type { DemoStatus } from '../../../shared/contract.ts';
import { EMPTY_GRAPH } from './graph.ts';
import { kit, type AppState } from './kit.ts';

/** The demo workspace and its guided tour. */
export interface DemoSlice {
  /** The demo workspace: whether this installation has one and whether it is open. */
  demo: DemoStatus | null;
  /** The tour step being shown (its graph link appears with the answer). */
  tourStep: string | null;
  startDemo(): Promise<void>;
  exitDemo(): Promise<void>;
  resetDemo(): Promise<void>;
  askTour(id: string): Promise<void>;
}

export const createDemoSlice: StateCreator<AppState, [], [], DemoSlice> = (set, get) => {
  const { client, run } = kit(get);
  /** Opens another workspace (the demo or the user's): everything shown belonged to the old one. */
  const switchWorkspace = (method: 'demo/start' | 'demo/exit' | 'demo/reset') =>
    run(async () => {
      set({ answer: null, draft: '', results: null, preview: null, lastReport: null, tourStep: null, system: null, graph: EMPTY_GRAPH });
      const demo = await client().call(method, {});
      set({ demo, view: 'ask', onboarding: demo.active ? false : get().onboarding });
      await get().refresh();
      if (!demo.active && get().roots.length === 0) set({ onboarding: !get().onboardingDone });
    });
  return {
    demo: null,
    tourStep: null,

    startDemo: () => switchWorkspace('demo/start'),
    exitDemo: () => switchWorkspace('demo/exit'),
    resetDemo: () => switchWorkspace('demo/reset'),
    async askTour(id) {
      const step = get().demo?.tour.find((t) => t.id === id);
      if (!step) return;
      // Each tour question stands on its own: it starts its own conversation.
      set({ tourStep: id, view: 'ask', thread: null });
      await get().ask(step.question);
    },
  };
};
