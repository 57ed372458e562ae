import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, loadProfile, type RetrievalProfile } from '../../engine/retrieve/profile.ts';
import { ablationVariants } from './ablation.ts';

// docs/quality.md quotes `synapsis eval --profile docs/profiles/<name>.json` numbers: each file must stay
// the shipped default with only the change its name says, or the quoted comparison stops meaning anything.
const DIR = path.resolve(import.meta.dirname, '../../../docs/profiles');
const ranking = ({ name: _n, description: _d, produced_by: _p, fitted: _f, ...rest }: RetrievalProfile) => rest;
const load = (name: string) => loadProfile(path.join(DIR, `${name}.json`), DIR);

describe('docs/profiles', () => {
  it('holds exactly the profiles docs/quality.md names', () => {
    expect(fs.readdirSync(DIR).sort()).toEqual(['default-chunk-0.1.json', 'default-chunk-0.3.json', 'default-chunk-0.5.json', 'default-chunk-max.json', 'plain-rrf.json']);
  });

  it('default-chunk-*: the shipped default but for chunk_share', () => {
    for (const [name, share] of [['default-chunk-max', null], ['default-chunk-0.1', 0.1], ['default-chunk-0.3', 0.3], ['default-chunk-0.5', 0.5]] as const) {
      const p = load(name);
      expect(p.name).toBe(name);
      expect(p.chunk_share).toBe(share);
      expect(ranking(p)).toEqual({ ...ranking(DEFAULT_PROFILE), chunk_share: share });
    }
    expect(DEFAULT_PROFILE.chunk_share).not.toBeNull();
  });

  it('plain-rrf: the plain RRF rows of synapsis quality', () => {
    const rows = ablationVariants(['a.gguf', 'b.gguf']).filter((v) => v.name.startsWith('plain RRF'));
    expect(rows.length).toBe(3);
    for (const row of rows) expect(ranking(load('plain-rrf'))).toEqual(ranking(row.profile!));
  });
});
