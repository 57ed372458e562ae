#!/usr/bin/env node
// The `synapsis` command: runs the TypeScript CLI through tsx's loader (no separate build step).
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
process.exitCode = await runCli(process.argv.slice(2));
