import path from 'node:path';
import type { Command } from 'commander';
import { createEngine, prepareEngineStore } from '../../engine/engine.ts';
import { defaultDemoDir } from '../../engine/host/demo.ts';
import { EngineHost } from '../../engine/host/engine-host.ts';
import { lexicalIndexOutdated } from '../../engine/search/lexical-upgrade.ts';
import { openLocalPage } from '../../engine/host/open-file.ts';
import { engineOptions, option, parsePort, upgradeLine, type RegisteredCommand } from '../command.ts';
import { DEMO_MODELS_DIR, DEMO_TOUR, PACKAGE_VERSION, REPO_ROOT, SAMPLE_QUESTIONS, SAMPLE_VAULT } from '../resources.ts';
import { startWebServer, writeHandoffPage } from '../web.ts';

/** How long the --open handoff page waits for the browser before it is deleted. */
const HANDOFF_MS = 120_000;

interface WebOptions {
  port: number;
  uiDir?: string;
  watch: boolean;
  demo?: boolean;
  demoDir?: string;
  demoModels?: string;
  open?: boolean;
}

/** Serves the renderer and the engine's `call` over a loopback WebSocket until Ctrl+C. */
export const web: RegisteredCommand = {
  name: 'web',
  examples: ['synapsis web                 serve the UI on http://127.0.0.1:4747 (the printed address carries the token)', 'synapsis web --port 0 --json   any free port; prints {url, port, data_dir, demo}', 'synapsis web --demo --open     the guided demo on the sample vault, in your browser'],
  register: (parent, { io, globals }) =>
    parent
      .command('web')
      .description('serve the desktop UI in your browser on 127.0.0.1 (a per-run secret token guards the engine); Ctrl+C stops')
      .addOption(option('--port <n>', 'port on 127.0.0.1 (0: any free port)', parsePort, 4747))
      .addOption(option('--ui-dir <dir>', 'the built renderer (default: out/renderer of this installation; npm run build makes it)'))
      .addOption(option('--no-watch', 'do not watch the roots for changes'))
      .addOption(option('--demo', 'start in the demo: the sample vault in a throwaway data dir (never --data-dir), with a guided tour'))
      .addOption(option('--demo-dir <dir>', 'the demo data dir (default: synapsis-demo-<user> in the OS temp folder)'))
      .addOption(option('--demo-models <dir>', 'models for the demo (default: models/ of a demo bundle, or ../shared/models)'))
      .addOption(option('--open', 'open the address in the default browser'))
      .action(async (cmdOpts: WebOptions, cmd: Command) => {
        const opts = globals(cmd);
        const staticDir = path.resolve(cmdOpts.uiDir ?? path.join(REPO_ROOT, 'out', 'renderer'));
        const host = new EngineHost({
          create: () => createEngine({ ...engineOptions(opts), warmGraph: true }),
          // An older store's word index is rebuilt off the server's thread first, its progress on stderr.
          beforeOpen: (onProgress) => {
            const line = upgradeLine(io);
            return prepareEngineStore(engineOptions(opts), (notes) => {
              line(notes);
              onProgress(notes);
            });
          },
          watch: cmdOpts.watch,
          onError: (error) => io.err(`synapsis web: ${(error as Error).message}\n`),
          demo: {
            vault: SAMPLE_VAULT,
            questionsFile: SAMPLE_QUESTIONS,
            tourFile: DEMO_TOUR,
            dataDir: path.resolve(cmdOpts.demoDir ?? defaultDemoDir()),
            modelsDir: cmdOpts.demoModels ?? DEMO_MODELS_DIR,
          },
          startInDemo: cmdOpts.demo ?? false,
        });
        const serve = async (dataDir: string) => {
          const server = await startWebServer({ host, staticDir, port: cmdOpts.port, version: PACKAGE_VERSION });
          const what = cmdOpts.demo ? `the demo (${dataDir})` : dataDir;
          if (opts.json) io.out(`${JSON.stringify({ url: server.openUrl, port: server.port, data_dir: dataDir, demo: cmdOpts.demo ?? false })}\n`);
          else io.out(`Synapsis web mode, ${what}: open ${server.openUrl}\nOnly this machine can connect, and only with the token in that address. Ctrl+C stops.\n`);
          if (cmdOpts.open) {
            // The browser gets a private page's path, not the tokened address: a command line is
            // readable by every user of the machine. The page goes once a tab has connected (or after 2 minutes).
            const page = writeHandoffPage(server.openUrl);
            const timer = setTimeout(() => page.remove(), HANDOFF_MS);
            timer.unref();
            void server.connected.then(() => page.remove());
            const close = server.close.bind(server);
            Object.assign(server, { close: async () => (page.remove(), close()) });
            await openLocalPage(page.file).catch((error: Error) => {
              page.remove();
              io.err(`synapsis web: could not open a browser (${error.message}); open the address above\n`);
            });
          }
          return server;
        };
        // A store whose word index must be rebuilt first is served at once, so the page shows how far
        // the rebuild has come; otherwise the engine opens first and a store it cannot open is said
        // before anything is served.
        const userDir = engineOptions(opts).dataDir;
        let server = !cmdOpts.demo && lexicalIndexOutdated(userDir) ? await serve(userDir) : null;
        try {
          const engine = await host.engine().catch(async (error: unknown) => {
            await server?.close();
            server = null;
            throw error;
          });
          server ??= await serve(engine.dataDir);
          await new Promise<void>((resolve) => {
            process.once('SIGINT', () => resolve());
            process.once('SIGTERM', () => resolve());
          });
          await server.close();
        } finally {
          await host.dispose();
        }
      }),
};
