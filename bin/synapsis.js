#!/usr/bin/env node
// The `synapsis` command: the built JavaScript (scripts/build-cli.mjs, run by scripts/setup.sh) while
// it is current, else the TypeScript sources through tsx's loader, with the same behaviour.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cliEntry } from './cli-entry.js';

// A reader that stops early (`synapsis search x | head`) closes the pipe: stop quietly, as other
// command-line tools do, instead of a stack trace for output nobody reads.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const entry = cliEntry(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
let runCli;
if (entry.built) {
  ({ runCli } = await import(pathToFileURL(entry.file).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ runCli } = await import('../src/cli/main.ts'));
}
process.exitCode = await runCli(process.argv.slice(2));
