/**
 * The host's namespace: methods the shell serving the UI answers itself, and the demo workspace.
 */
import { z } from 'zod';
import { Empty } from './common.ts';

/** One step of the demo's guided tour: a question from the sample vault's fixture and what it shows. */
export const TourStepSchema = z.object({
  id: z.string(),
  question: z.string(),
  kind: z.string(),
  shows: z.string(),
  note: z.string(),
  /** An entity whose graph neighbourhood illustrates the step. */
  graph: z.string().optional(),
});
export type TourStep = z.infer<typeof TourStepSchema>;
/** The demo workspace: the sample vault in a throwaway data dir, never the user's. */
export const DemoStatusSchema = z.object({
  available: z.boolean(),
  active: z.boolean(),
  data_dir: z.string().nullable(),
  models: z.array(z.string()),
  tour: z.array(TourStepSchema),
});
export type DemoStatus = z.infer<typeof DemoStatusSchema>;

/**
 * Methods a host (the Electron main process, the web server) answers itself, next to the engine's:
 * opening a file in the user's editor and choosing a folder are the desktop's business, not the
 * engine's; restarting the engine applies imported models.
 */
export const hostContract = {
  /** Opens the file behind a locator in the user's editor (at its line) or with the OS; only files of indexed documents. */
  'source/open': {
    request: z.object({ locator: z.string().min(1).max(4096), allow_sensitivity: z.array(z.string().min(1)).default([]) }).strict(),
    response: z.object({ opened: z.boolean(), file: z.string(), line: z.number().int(), how: z.string() }),
  },
  /** The OS folder picker (desktop only; web mode answers null and the UI asks for a path). */
  'app/pickFolder': { request: Empty, response: z.object({ path: z.string().nullable() }) },
  /**
   * Web mode's folder picker, which has no system dialog: the folders inside one folder (names only,
   * hidden ones left out), from the home folder when no path is given. The desktop app never passes it
   * (its renderer gate), so there only the system dialog picks a folder.
   */
  'app/listFolders': {
    request: z.object({ path: z.string().min(1).max(4096).optional() }).strict(),
    response: z.object({ path: z.string(), parent: z.string().nullable(), folders: z.array(z.string()), truncated: z.boolean() }),
  },
  /** The OS file picker for a GGUF model to import (desktop only; web mode answers null and the UI asks for a path). */
  'app/pickModelFile': { request: Empty, response: z.object({ path: z.string().nullable() }) },
  /** Restarts the engine with the current models and settings (after importing a model). */
  'app/restart': { request: Empty, response: z.object({ restarted: z.boolean() }) },
  /** Which shell serves the UI and whether the engine is up. */
  'app/info': {
    request: Empty,
    response: z.object({
      shell: z.enum(['electron', 'web', 'test']),
      version: z.string(),
      data_dir: z.string(),
      demo: DemoStatusSchema,
      /** Whether this shell watches the folders for changes (false for `synapsis web --no-watch`): the UI then never turns watching on. */
      watch: z.boolean(),
    }),
  },
  /** Switches to the demo workspace (indexing the sample vault on its first start; progress comes as index events). */
  'demo/start': { request: Empty, response: DemoStatusSchema },
  /** Back to the user's own workspace. */
  'demo/exit': { request: Empty, response: DemoStatusSchema },
  /** Deletes the demo workspace and builds it again from the sample vault. */
  'demo/reset': { request: Empty, response: DemoStatusSchema },
} as const;
export type HostContract = typeof hostContract;
export type HostMethod = keyof HostContract;
export const HOST_METHODS = Object.keys(hostContract) as HostMethod[];
export function isHostMethod(name: string): name is HostMethod {
  return Object.prototype.hasOwnProperty.call(hostContract, name);
}
