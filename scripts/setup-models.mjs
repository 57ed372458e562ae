// The default models for the demo and a first start, offline first: copied from ../shared/models when
// that folder exists (development machines), else downloaded with `synapsis models pull` (at most
// --timeout seconds; the public file of the default embedder, or the measured one from
// SYNAPSIS_MODEL_MIRROR), into models/ of the checkout, where the demo looks first. Says which it
// did; never fails setup.
//
//   node scripts/setup-models.mjs [--timeout 120] [--shared ../shared/models] [--target models]
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { timeout: { type: 'string', default: '120' }, shared: { type: 'string', default: path.join(REPO, '..', 'shared', 'models') }, target: { type: 'string', default: path.join(REPO, 'models') } } });
const target = path.resolve(values.target);
const say = (line) => console.log(`setup: models: ${line}`);
const bin = path.join(REPO, 'bin', 'synapsis.js');

const catalog = spawnSync(process.execPath, [bin, 'models', 'catalog', '--json'], { encoding: 'utf8' });
if (catalog.status !== 0) {
  say(`the catalog could not be read (${catalog.stderr.trim().split('\n').pop()}); none imported`);
  process.exit(0);
}
const models = JSON.parse(catalog.stdout);
const embedder = models.find((m) => m.id === 'multilingual-e5-small');
// What a download fetches: the measured file from a mirror, else the public file of the same model.
const fetched = process.env.SYNAPSIS_MODEL_MIRROR ? embedder : (models.find((m) => m.variant_of === embedder.id && m.uri && m.sha256) ?? embedder);
const sha256 = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

if (fs.existsSync(values.shared)) {
  fs.mkdirSync(target, { recursive: true });
  let copied = 0;
  const files = fs.readdirSync(values.shared).filter((f) => f.endsWith('.gguf'));
  for (const file of files) {
    const from = path.join(values.shared, file);
    const to = path.join(target, file);
    if (fs.existsSync(to) && fs.statSync(to).size === fs.statSync(from).size) continue;
    fs.copyFileSync(from, `${to}.partial`);
    fs.renameSync(`${to}.partial`, to);
    copied++;
  }
  const e5 = path.join(target, embedder.file);
  const check = !fs.existsSync(e5) ? `${embedder.file} is not among them` : sha256(e5) === embedder.sha256 ? `${embedder.id} sha256 verified` : `${embedder.file} does NOT match the catalog's sha256`;
  say(`imported from ${path.relative(REPO, values.shared)} into ${path.relative(REPO, target)}/: ${files.length} GGUF files (${copied} copied now; ${check})`);
} else if (![undefined, '', '0'].includes(process.env.SYNAPSIS_OFFLINE)) {
  // Any value but empty or 0 is offline, as in the app (llm/download.ts downloadsDisabled).
  say(`none imported (no ${path.relative(REPO, values.shared)}, and SYNAPSIS_OFFLINE=${process.env.SYNAPSIS_OFFLINE}): synapsis models add <folder> imports them`);
} else {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-setup-'));
  const pull = spawnSync(process.execPath, [bin, 'models', 'pull', fetched.id, '--models-dir', target, '--data-dir', dataDir], { encoding: 'utf8', timeout: Number(values.timeout) * 1000 });
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (pull.status === 0) say(`${pull.stdout.startsWith('present') ? `${fetched.id} is in ${path.relative(REPO, target)}/ already` : `downloaded ${fetched.id} into ${path.relative(REPO, target)}/`} (sha256 verified)`);
  else {
    const why = pull.error?.code === 'ETIMEDOUT' ? `stopped after ${values.timeout} s` : (pull.stderr.trim().split('\n').find((l) => l.startsWith('error')) ?? `exit ${pull.status}`);
    say(`no ${path.relative(REPO, values.shared)} and the download did not succeed (${why}): the demo searches by words; synapsis models add <folder> imports models`);
  }
}
