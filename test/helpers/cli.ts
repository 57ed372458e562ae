import { runCli } from '../../src/cli/main.ts';

/** Runs the CLI in process and collects what it printed, with its exit code. */
export async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}
