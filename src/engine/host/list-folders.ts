/**
 * Web mode's folder picker: the folders inside one folder, by name. A browser page cannot open the
 * system's folder dialog, so the page walks the tree through this instead of asking for a typed path.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createError } from '../../shared/errors.ts';

/** Folder names listed at once; a folder with more says so (truncated) and the path can be typed. */
export const MAX_LISTED_FOLDERS = 500;

export interface FolderListing {
  path: string;
  parent: string | null;
  folders: string[];
  truncated: boolean;
}

/** The visible subfolders of `dir` (the home folder by default), sorted; symlinks to folders count as folders. */
export function listFolders(dir: string = os.homedir()): FolderListing {
  const abs = path.resolve(dir.replace(/^~(?=$|[\\/])/, os.homedir()));
  let entries: fs.Dirent[];
  try {
    if (!fs.statSync(abs).isDirectory()) throw createError('E_SYN_BAD_REQUEST', `Not a folder: ${abs}`);
    entries = fs.readdirSync(abs, { withFileTypes: true });
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') throw createError('E_SYN_NOT_FOUND', `No such folder: ${abs}`);
    if ((error as { code?: string }).code === 'EACCES') throw createError('E_SYN_BAD_REQUEST', `Synapsis may not read ${abs}`);
    throw error;
  }
  const folders = entries
    .filter((e) => !e.name.startsWith('.'))
    .filter((e) => {
      if (e.isDirectory()) return true;
      if (!e.isSymbolicLink()) return false;
      try {
        return fs.statSync(path.join(abs, e.name)).isDirectory();
      } catch {
        return false;
      }
    })
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b));
  const parent = path.dirname(abs);
  return { path: abs, parent: parent === abs ? null : parent, folders: folders.slice(0, MAX_LISTED_FOLDERS), truncated: folders.length > MAX_LISTED_FOLDERS };
}
