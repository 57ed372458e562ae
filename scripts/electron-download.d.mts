export function electronUrl(version: string, env?: NodeJS.ProcessEnv, platform?: string, arch?: string): string;
