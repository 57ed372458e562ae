import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { writeHandoffPage } from '../../src/cli/web.ts';
import { TempDirs } from '../helpers/tmp.ts';

/**
 * `synapsis web --open` hands the address to the desktop opener. A command line is readable by every
 * user of the machine (/proc/<pid>/cmdline), and the browser keeps its argv: the token must not be
 * on it. The opener gets a page in a folder only this user can read (0700, the file 0600) that
 * sends the browser on to the tokened address; the page is deleted once the browser has connected.
 */
const BIN = path.resolve(import.meta.dirname, '..', '..', 'bin', 'synapsis.js');
const temp = new TempDirs();
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGTERM');
  temp.cleanup();
});

describe.skipIf(process.platform !== 'linux')('synapsis web --open', () => {
  it('puts no token on the opener’s command line, and the page that carries it is private and read once', async () => {
    const bin = temp.make('fake-opener-');
    const argvLog = path.join(bin, 'argv.txt');
    // The opener records its whole command line, as /proc/<pid>/cmdline shows it to other users.
    fs.writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$0" "$@" > ${JSON.stringify(argvLog)}\n`, { mode: 0o755 });
    const ui = temp.make('web-open-ui-', { 'index.html': '<!doctype html>' });
    const dataDir = temp.make('web-open-data-');
    const child = spawn(process.execPath, [BIN, '--data-dir', dataDir, 'web', '--port', '0', '--json', '--no-watch', '--open', '--ui-dir', ui], {
      env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '', TMPDIR: temp.make('web-open-tmp-'), SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    for (let i = 0; i < 600 && !(out.includes('\n') && fs.existsSync(argvLog) && fs.readFileSync(argvLog, 'utf8').includes('\n')); i++) await new Promise((r) => setTimeout(r, 50));
    const { url, port } = JSON.parse(out.split('\n')[0]!) as { url: string; port: number };
    const token = /#token=([0-9a-f]{64})$/.exec(url)![1]!;

    const argv = fs.readFileSync(argvLog, 'utf8').trim().split('\n');
    expect(argv.join(' ')).not.toContain(token);
    expect(argv.join(' ')).not.toMatch(/token=/);
    expect(err).not.toMatch(/could not open a browser/);
    // What the opener got: a page only this user can read, which goes on to the tokened address.
    const page = argv[1]!;
    expect(path.isAbsolute(page)).toBe(true);
    expect(fs.statSync(page).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(page)).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(page, 'utf8')).toContain(url);

    // The browser connects with the token: the page is gone.
    const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`, ['synapsis', `synapsis-token.${token}`], { origin: `http://127.0.0.1:${port}` });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    for (let i = 0; i < 100 && fs.existsSync(page); i++) await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(page)).toBe(false);
    expect(fs.existsSync(path.dirname(page))).toBe(false);
    ws.close();
  }, 60_000);

  it('hands over only this server\'s tokened loopback address, in a new private folder each time', () => {
    const tmp = temp.make('web-open-pages-');
    expect(() => writeHandoffPage('http://evil.example/#token=ab', tmp)).toThrow(/Only this server's tokened loopback address/);
    expect(() => writeHandoffPage('http://127.0.0.1:4747/#token=ab"><script>', tmp)).toThrow(/Only this server's tokened loopback address/);
    const a = writeHandoffPage('http://127.0.0.1:4747/#token=ab', tmp);
    const b = writeHandoffPage('http://127.0.0.1:4747/#token=ab', tmp);
    expect(path.dirname(a.file)).not.toBe(path.dirname(b.file));
    a.remove();
    a.remove();
    expect(fs.existsSync(path.dirname(a.file))).toBe(false);
    expect(fs.existsSync(b.file)).toBe(true);
  });
});
