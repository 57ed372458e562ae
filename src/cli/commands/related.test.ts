import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../../../test/helpers/cli.ts';
import { TempDirs } from '../../../test/helpers/tmp.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe('synapsis related and synapsis tags', () => {
  it('print a note\'s related notes with why, and the tags with their counts; restricted notes only when allowed', async () => {
    const notes = temp.make('syn-cli-related-', {
      'Maya Chen.md': '---\ntags: [person, aurora]\n---\n# Maya Chen\n\nLeads [[Project Aurora]].\n',
      'Project Aurora.md': '---\ntags: [project, aurora]\n---\n# Project Aurora\n\nThe sync product.\n',
      'secret.md': '---\nsensitivity: restricted\ntags: [salary]\n---\n# Secret\n\nAbout [[Maya Chen]].\n',
    });
    const dataDir = temp.make('syn-cli-data-');
    expect((await cli(['index', notes, '--data-dir', dataDir, '--quiet'])).code).toBe(0);

    const related = await cli(['related', 'Project Aurora.md', '--data-dir', dataDir]);
    expect(related.code).toBe(0);
    expect(related.out).toContain('── related to Project Aurora.md');
    expect(related.out).toMatch(/1\. Maya Chen {2}Maya Chen\.md\n {5}links here {2}\(Maya Chen\.md#L6-L6\)\n {5}shares: #aurora/);
    expect((await cli(['related', 'Maya Chen.md', '--data-dir', dataDir])).out).not.toContain('secret.md');
    expect((await cli(['related', 'Maya Chen.md', '--allow', 'restricted', '--data-dir', dataDir])).out).toMatch(/\. Secret {2}secret\.md {2}\(restricted\)\n/);
    const json = JSON.parse((await cli(['related', 'Maya Chen.md', '-k', '1', '--json', '--data-dir', dataDir])).out);
    expect(json).toMatchObject({ path: 'Maya Chen.md', links: [{ name: 'Project Aurora', path: 'Project Aurora.md' }] });
    expect(json.related).toHaveLength(1);
    const hidden = await cli(['related', 'secret.md', '--data-dir', dataDir]);
    expect(hidden.code).toBe(2);
    expect(hidden.err).toMatch(/E_SYN_NOT_FOUND/);

    const tags = await cli(['tags', '--data-dir', dataDir]);
    expect(tags.out).toBe('2  #aurora\n1  #person\n1  #project\n');
    expect((await cli(['tags', 'sal', '--data-dir', dataDir])).out).toBe('No tags.\n');
    expect((await cli(['tags', 'sal', '--allow', 'restricted', '--data-dir', dataDir])).out).toBe('1  #salary\n');
    expect((await cli(['tags', '--limit', '1', '--data-dir', dataDir])).out).toBe('2  #aurora\n(2 more; --limit 3 lists them all)\n');
  });
});
