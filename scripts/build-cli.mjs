// Builds the `synapsis` command to plain JavaScript (out/cli/main.js) with esbuild, so it starts
// without compiling TypeScript at run time; bin/synapsis.js runs it while it is newer than every
// source it was built from (out/cli/inputs.json), and the sources through tsx otherwise.
//
//   node scripts/build-cli.mjs [--outdir out/cli]
//
// The CLI includes the engine host of web mode (src/engine/host). Native modules, pdfjs-dist (it
// loads its fonts and worker from its own folder), esbuild and the devDependencies (only the
// benchmark comparisons load them, lazily) stay external and load from node_modules as before.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { outdir: { type: 'string', default: path.join(REPO, 'out', 'cli') } } });
const outdir = path.resolve(values.outdir);

const NATIVE_MODULES = ['better-sqlite3', 'node-llama-cpp', 'faiss-node', 'usearch'];
const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
const external = [...NATIVE_MODULES, 'pdfjs-dist', 'esbuild', ...Object.keys(pkg.devDependencies ?? {})];

/**
 * Each source keeps its own `import.meta.url` (its file under src/): the paths the CLI computes from
 * it (the sample vault, package.json, the built UI, createRequire) stay what they are under tsx,
 * wherever the bundle is written.
 */
const sourceUrls = {
  name: 'source-urls',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/ }, async (args) => {
      let contents = await fs.promises.readFile(args.path, 'utf8');
      if (contents.includes('import.meta.url')) contents = contents.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
      return { contents, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
    });
  },
};

const started = Date.now();
const tmp = `${outdir}.tmp-${process.pid}`;
fs.rmSync(tmp, { recursive: true, force: true });
const result = await esbuild.build({
  entryPoints: { main: path.join(REPO, 'src', 'cli', 'main.ts') },
  outdir: tmp,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  metafile: true,
  logLevel: 'warning',
  // CommonJS packages bundled into ESM call require() for Node's built-ins.
  banner: { js: "import { createRequire as __synapsisRequire } from 'node:module'; const require = __synapsisRequire(import.meta.url);" },
  plugins: [sourceUrls],
});
// What the build read, relative to the repository: bin/synapsis.js falls back to the sources when any
// of them changed after `started`. Packages count through the lockfile (npm ci rewrites node_modules).
const inputs = Object.keys(result.metafile.inputs)
  .map((p) => path.relative(REPO, path.resolve(p)))
  .filter((p) => !p.split(path.sep).includes('node_modules'));
inputs.push('package-lock.json', 'package.json');
fs.writeFileSync(path.join(tmp, 'inputs.json'), `${JSON.stringify({ built_at: started, root: REPO, inputs: [...new Set(inputs)].sort() }, null, 1)}\n`);
// Written beside and moved in place: a command started meanwhile finds no inputs.json and runs the sources.
fs.rmSync(outdir, { recursive: true, force: true });
fs.mkdirSync(path.dirname(outdir), { recursive: true });
fs.renameSync(tmp, outdir);
const bytes = Object.values(result.metafile.outputs).reduce((s, o) => s + o.bytes, 0);
console.log(`build-cli: ${path.relative(process.cwd(), outdir) || '.'}/main.js from ${inputs.length} sources, ${(bytes / 1e6).toFixed(1)} MB, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
