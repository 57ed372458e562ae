import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '..');

describe('README and CI', () => {
  const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
  const commands = [...readme.matchAll(/```(?:sh|bash)\n(.+)\n```/g)].map((m) => m[1]!.trim());

  it('opens with the two setup commands: demo, then tests', () => {
    expect(commands[0]).toMatch(/scripts\/setup\.sh && npm run demo$/);
    expect(commands[1]).toMatch(/scripts\/setup\.sh && npm test$/);
    expect(readme.indexOf(commands[0]!)).toBeLessThan(readme.indexOf('## '));
  });

  it('.ci/run runs exactly the test command', () => {
    const run = fs.readFileSync(path.join(repo, '.ci', 'run'), 'utf8');
    const last = run.trim().split('\n').pop()!;
    expect(commands[1]!.endsWith(last)).toBe(true);
  });

  it('lists better-sqlite3 in allowScripts so npm 11 builds it', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
    expect(pkg.allowScripts['better-sqlite3']).toBe(true);
  });
});
