/**
 * The host's namespace: methods the shell serving the UI answers itself, and the demo workspace.
 */
import { z } from 'zod';
import { Empty } from './common.ts';
import { MODEL_ROLES, ModelInfoSchema } from './models.ts';

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

/** A model of the catalog as the UI offers it: what it is, its size and licence, and whether this machine has it. */
export const CatalogEntrySchema = z.object({
  id: z.string(),
  role: z.enum(MODEL_ROLES),
  name: z.string(),
  file: z.string(),
  languages: z.array(z.string()),
  size_bytes: z.number().int(),
  /** false: the size is approximate. */
  size_exact: z.boolean(),
  license: z.string(),
  good_for: z.string(),
  ram_bytes: z.number(),
  /** One of the models "Download the recommended models" fetches on this machine. */
  recommended: z.boolean(),
  /** It can be downloaded here (a public address or the mirror); false: import it from a folder. */
  downloadable: z.boolean(),
  /** A model with this file name is already imported. */
  installed: z.boolean(),
  /** The exact file is pinned: its sha256 is checked before it is registered. */
  verified: z.boolean(),
  /** The commit of the repository the public address is pinned to (not a branch that can move); null when the address names none. */
  revision: z.string().nullable().default(null),
  /** A chat model: about how many tokens a second it would write on this machine; null for other roles. */
  tokens_per_s: z.number().nullable().default(null),
  /** The estimate comes from a chat model measured here (else from the machine's cores or GPU). */
  speed_measured: z.boolean().default(false),
});
export type CatalogEntry = z.infer<typeof CatalogEntrySchema>;

/** Where a model download stands; sent as the `models/download` event while it runs. */
export const DownloadProgressSchema = z.object({
  id: z.string(),
  file: z.string(),
  state: z.enum(['downloading', 'verifying', 'registering', 'done', 'failed', 'cancelled']),
  downloaded_bytes: z.number(),
  total_bytes: z.number(),
  /** Bytes per second over the last few seconds. */
  rate_bytes_per_s: z.number(),
  /** This model's place in the run (1-based) and how many the run fetches. */
  index: z.number().int(),
  count: z.number().int(),
  error: z.string().optional(),
});
export type DownloadProgress = z.infer<typeof DownloadProgressSchema>;

/**
 * Methods a host (the Electron main process, the web server) answers itself, next to the engine's:
 * opening a file in the user's editor and choosing a folder are the desktop's business, not the
 * engine's; restarting the engine applies imported models.
 */
export const hostContract = {
  /** Opens the file behind a locator in the user's editor (at its line) or with the OS; only files of indexed documents. */
  'source/open': {
    request: z
      .object({
        locator: z.string().min(1).max(4096),
        allow_sensitivity: z.array(z.string().min(1)).default([]),
        /** editor: the user's editor at the line; obsidian: the note in Obsidian (its root lies in a vault). */
        app: z.enum(['editor', 'obsidian']).default('editor'),
      })
      .strict(),
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
  /** The OS folder picker for a folder of GGUF models (a USB stick); desktop only, web mode answers null. */
  'app/pickModelFolder': { request: Empty, response: z.object({ path: z.string().nullable() }) },
  /**
   * The model catalog for this machine: what "Download the recommended models" fetches and its size;
   * offline: downloads are turned off (SYNAPSIS_OFFLINE set to anything but empty or 0) and the UI offers import only.
   */
  'models/catalog': {
    request: Empty,
    response: z.object({
      offline: z.boolean(),
      models: z.array(CatalogEntrySchema),
      recommended: z.array(z.string()),
      recommended_bytes: z.number(),
      /** The download running now (one at a time), if any. */
      download: DownloadProgressSchema.nullable(),
    }),
  },
  /**
   * Downloads catalog models on the host (never in the engine): progress as `models/download` events,
   * each file checked (sha256) before it is registered, then the engine restarts with them. An
   * interrupted or cancelled download resumes when asked again. Refused with SYNAPSIS_OFFLINE set.
   */
  'models/download': {
    request: z.object({ ids: z.array(z.string().min(1).max(200)).min(1).max(20) }).strict(),
    response: z.object({ models: z.array(ModelInfoSchema), restarted: z.boolean() }),
  },
  /** Stops the running download; what arrived is kept for the next try. */
  'models/cancelDownload': { request: Empty, response: z.object({ cancelled: z.boolean() }) },
  /** Imports every GGUF file of a folder (a USB stick), a few levels down; the engine restarts with them. */
  'models/importFolder': {
    request: z.object({ path: z.string().min(1).max(4096) }).strict(),
    response: z.object({ added: z.array(ModelInfoSchema), skipped: z.array(z.object({ file: z.string(), reason: z.string() })), restarted: z.boolean() }),
  },
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
