export function cliEntry(root: string, env?: NodeJS.ProcessEnv): { built: true; file: string } | { built: false; reason: string };
