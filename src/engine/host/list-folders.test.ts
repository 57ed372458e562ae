import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { listFolders } from './list-folders.ts';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

describe('listFolders', () => {
  it('lists visible subfolders by name, sorted, with the parent to go up to', () => {
    const dir = temp.make('list-');
    for (const name of ['notes', 'Archive', '.git']) fs.mkdirSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, 'file.md'), '# x\n');
    fs.symlinkSync(path.join(dir, 'notes'), path.join(dir, 'linked'));
    const listing = listFolders(dir);
    expect(listing).toEqual({ path: dir, parent: path.dirname(dir), folders: ['Archive', 'linked', 'notes'], truncated: false });
    expect(listFolders('/').parent).toBeNull();
  });

  it('says which folder does not exist', () => {
    expect(() => listFolders('/no/such/folder')).toThrow(/No such folder: \/no\/such\/folder/);
  });
});
