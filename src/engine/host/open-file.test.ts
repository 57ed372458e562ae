import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { editorCommand, openInEditor, openUrl } from './open-file.ts';

const temp = new TempDirs();
const savedPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = savedPath;
  temp.cleanup();
});

describe('editorCommand', () => {
  it('fills {file} and {line} into separate arguments, never one shell string', () => {
    expect(editorCommand('code --goto {file}:{line}', '/n/a b;rm -rf ~.md', 7)).toEqual(['code', '--goto', '/n/a b;rm -rf ~.md:7']);
    expect(editorCommand('  gedit  ', '/n/x.md', 1)).toEqual(['gedit', '/n/x.md']);
    expect(() => editorCommand('   ', '/n/x.md', 1)).toThrow(/SYNAPSIS_EDITOR is empty/);
  });
});

describe.skipIf(process.platform !== 'linux')('openUrl (web mode --open)', () => {
  it('hands a loopback address to the desktop opener and refuses any other address', async () => {
    const bin = temp.make('fake-opener-');
    const log = path.join(bin, 'opened.txt');
    fs.writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(log)}\n`, { mode: 0o755 });
    process.env.PATH = `${bin}:${savedPath ?? ''}`;
    await openUrl('http://127.0.0.1:4747/#token=abc');
    await expect.poll(() => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '')).toBe('http://127.0.0.1:4747/#token=abc');
    await expect(openUrl('http://evil.example/')).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST' });
    await expect(openUrl('file:///etc/passwd')).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST' });
  });

  it('reports an opener that fails (xdg-open exits 3 with no application for the file), for --open and "Open in editor"', async () => {
    const bin = temp.make('failing-opener-');
    fs.writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\necho 'xdg-open: no method available for opening' >&2\nexit 3\n`, { mode: 0o755 });
    process.env.PATH = `${bin}:${savedPath ?? ''}`;
    await expect(openUrl('http://127.0.0.1:4747/#token=abc')).rejects.toThrow(/xdg-open could not open it: it exited with code 3 \(no application is set to open this kind of file\): xdg-open: no method available/);
    const root = temp.make('open-root-');
    fs.writeFileSync(path.join(root, 'a.md'), '# A\n');
    await expect(openInEditor({ root, path: 'a.md', line: 1 }, {})).rejects.toThrow(/exited with code 3/);
    // An editor that stays open is a success.
    const editor = path.join(bin, 'editor');
    fs.writeFileSync(editor, '#!/bin/sh\nsleep 3\n', { mode: 0o755 });
    await expect(openInEditor({ root, path: 'a.md', line: 1 }, { SYNAPSIS_EDITOR: `${editor} {file}` })).resolves.toMatchObject({ opened: true });
  });
});
