#!/usr/bin/env node
// Builds node_modules/faiss-node against Debian's libfaiss-dev (1.7.3) with node-gyp, offline.
// faiss-node's own install script downloads a prebuild or clones FAISS from GitHub, neither of
// which works without internet, so npm never runs it (it is not in package.json's allowScripts).
// Usage: node scripts/build-faiss.mjs [--force]. Safe to run again: it skips a build that is
// already there for this Node version and still loads. See docs/design.md §8.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PKG_DIR = join(ROOT, 'node_modules', 'faiss-node');
const WORK_DIR = join(PKG_DIR, 'synapsis-build');
// `bindings` (faiss-node's loader) looks here first.
const TARGET = join(PKG_DIR, 'build', 'Release', 'faiss-node.node');
const STAMP = join(PKG_DIR, 'build', 'Release', 'synapsis-build.json');
const SYSTEM_PACKAGES = 'build-essential python3 libfaiss-dev liblapack-dev libblas-dev';

const log = (line) => console.log(`build-faiss: ${line}`);

function fail(message, hint) {
  console.error(`build-faiss: error: ${message}`);
  if (hint) console.error(`build-faiss: ${hint}`);
  console.error(
    'build-faiss: the faiss vector backend stays unavailable until this succeeds (usearch still works); ' +
      'fix the cause and run `node scripts/build-faiss.mjs` again.',
  );
  process.exit(1);
}

/** Header force-included before faiss.cc: faiss-node 0.5.1 targets FAISS 1.7.4, where idx_t moved to namespace scope. */
const COMPAT_HEADER = `#pragma once
#include <faiss/Index.h>
namespace faiss {
using idx_t = Index::idx_t;
}
`;

/**
 * Guard used by the patched calls: a C++ exception escaping a N-API callback aborts the whole
 * process (node-addon-api 6 only forwards Napi::Error), so FAISS errors become JS errors here.
 */
const GUARD = `
template <typename F>
static bool synapsisFaissGuard(Napi::Env env, F &&body)
{
  try
  {
    body();
    return true;
  }
  catch (const std::exception &ex)
  {
    Napi::Error::New(env, std::string("faiss: ") + ex.what()).ThrowAsJavaScriptException();
  }
  catch (...)
  {
    Napi::Error::New(env, "faiss: unknown native exception").ThrowAsJavaScriptException();
  }
  return false;
}
`;

/** [what, exact text in faiss-node 0.5.1's src/faiss.cc, replacement]. Each must match exactly once. */
const PATCHES = [
  ['guard helper', 'using idx_t = faiss::idx_t;\n', `using idx_t = faiss::idx_t;\n${GUARD}`],
  [
    'add',
    '    index_->add(dv.quot, xb);\n',
    '    if (!synapsisFaissGuard(env, [&] { index_->add(dv.quot, xb); }))\n    {\n      delete[] xb;\n      return env.Undefined();\n    }\n',
  ],
  [
    'train',
    '    index_->train(dv.quot, xb);\n',
    '    if (!synapsisFaissGuard(env, [&] { index_->train(dv.quot, xb); }))\n    {\n      delete[] xb;\n      return env.Undefined();\n    }\n',
  ],
  [
    'search',
    '    index_->search(nq, xq, k, D, I);\n',
    '    bool searched = synapsisFaissGuard(env, [&] { index_->search(nq, xq, k, D, I); });\n    delete[] xq;\n    if (!searched)\n    {\n      delete[] I;\n      delete[] D;\n      return env.Undefined();\n    }\n',
  ],
  [
    'write',
    '    faiss::write_index(index_.get(), fname.c_str());\n',
    '    if (!synapsisFaissGuard(env, [&] { faiss::write_index(index_.get(), fname.c_str()); }))\n      return env.Undefined();\n',
  ],
  [
    'remove_ids',
    '    size_t num = index_->remove_ids(faiss::IDSelectorArray{length, xb});\n',
    '    size_t num = 0;\n    if (!synapsisFaissGuard(env, [&] { num = index_->remove_ids(faiss::IDSelectorArray{length, xb}); }))\n    {\n      delete[] xb;\n      return env.Undefined();\n    }\n',
  ],
  [
    'toBuffer',
    '    faiss::write_index(index_.get(), writer);\n\n    // return buffer from IOWriter\n    return Napi::Buffer<uint8_t>::Copy(env, writer->data.data(), writer->data.size());\n',
    '    std::unique_ptr<faiss::VectorIOWriter> owned(writer);\n    if (!synapsisFaissGuard(env, [&] { faiss::write_index(index_.get(), writer); }))\n      return env.Undefined();\n\n    return Napi::Buffer<uint8_t>::Copy(env, writer->data.data(), writer->data.size());\n',
  ],
];

function patchSource(source) {
  let out = source;
  for (const [what, from, to] of PATCHES) {
    const first = out.indexOf(from);
    if (first < 0 || out.indexOf(from, first + from.length) >= 0) {
      fail(`faiss-node's src/faiss.cc does not look like version 0.5.1 (patch "${what}" does not apply once).`);
    }
    out = out.replace(from, () => to);
  }
  // read/fromBuffer/fromFactory already catch FaissException; std::bad_alloc and friends must not abort either.
  return out.replaceAll('catch (const faiss::FaissException &ex)', 'catch (const std::exception &ex)');
}

function findNodeGyp() {
  const candidates = [];
  try {
    candidates.push(createRequire(join(ROOT, 'package.json')).resolve('node-gyp/bin/node-gyp.js'));
  } catch {
    // not a dependency of this project; npm's bundled copy is what npm itself uses
  }
  if (process.env.npm_execpath) candidates.push(join(dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  const npm = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  if (npm) {
    try {
      candidates.push(join(dirname(realpathSync(npm)), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
    } catch {
      // a dangling npm link; try the fixed locations below
    }
  }
  const prefix = dirname(dirname(process.execPath));
  candidates.push(
    join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    '/usr/share/nodejs/node-gyp/bin/node-gyp.js',
  );
  return candidates.find((p) => existsSync(p));
}

/** Headers of the running Node, so node-gyp never tries to download them. */
function findNodeDir() {
  const configured = process.env.npm_config_nodedir;
  if (configured && existsSync(join(configured, 'include', 'node', 'node_api.h'))) return configured;
  const prefix = dirname(dirname(process.execPath));
  if (existsSync(join(prefix, 'include', 'node', 'node_api.h'))) return prefix;
  const npmrc = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['config', 'get', 'nodedir'], {
    encoding: 'utf8',
  });
  const fromNpm = (npmrc.stdout ?? '').trim();
  if (fromNpm && fromNpm !== 'undefined' && existsSync(join(fromNpm, 'include', 'node', 'node_api.h'))) return fromNpm;
  return undefined;
}

/** Loads the built module in a child process: a broken build may crash, which must not take us down. */
function smokeTest(modulePath) {
  const code = `
    const faiss = require(${JSON.stringify(modulePath)});
    const index = new faiss.IndexFlatIP(4);
    index.add([1, 0, 0, 0, 0, 1, 0, 0]);
    const r = index.search([0, 1, 0, 0], 1);
    if (r.labels[0] !== 1) throw new Error('wrong search result ' + JSON.stringify(r));
    if (index.removeIds([0]) !== 1 || index.ntotal() !== 1) throw new Error('removeIds failed');
    const copy = faiss.Index.fromBuffer(index.toBuffer());
    if (copy.ntotal() !== 1) throw new Error('toBuffer/fromBuffer round trip failed');
    // HNSW cannot remove ids: FAISS throws, and the guard must turn that into a JS error.
    const hnsw = faiss.Index.fromFactory(4, 'HNSW8', 0 /* METRIC_INNER_PRODUCT */);
    let threw = false;
    try { hnsw.removeIds([0]); } catch { threw = true; }
    if (!threw) throw new Error('a FAISS exception did not reach JavaScript');
    process.stdout.write('ok');
  `;
  const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8', cwd: PKG_DIR });
  if (r.status === 0 && r.stdout === 'ok') return undefined;
  return (r.stderr || r.stdout || `exit ${r.status ?? r.signal}`).trim().split('\n').slice(-5).join('\n');
}

function main() {
  const force = process.argv.includes('--force');
  if (!existsSync(join(PKG_DIR, 'package.json'))) {
    fail('node_modules/faiss-node is missing.', 'Run `npm ci` (or `bash scripts/setup.sh`) first.');
  }
  if (process.platform !== 'linux') {
    fail(`this script builds against Debian's libfaiss-dev; ${process.platform} is not supported.`);
  }
  const pkg = JSON.parse(readFileSync(join(PKG_DIR, 'package.json'), 'utf8'));
  const original = readFileSync(join(PKG_DIR, 'src', 'faiss.cc'), 'utf8');
  const self = readFileSync(fileURLToPath(import.meta.url), 'utf8');
  const stamp = {
    faissNode: pkg.version,
    node: process.version,
    modules: process.versions.modules,
    napi: process.versions.napi,
    script: createHash('sha256').update(self).update(original).digest('hex').slice(0, 16),
  };
  const stampText = JSON.stringify(stamp);

  if (!force && existsSync(TARGET) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === stampText) {
    const problem = smokeTest(TARGET);
    if (!problem) {
      log(`faiss-node ${pkg.version} is already built for Node ${process.version}`);
      return;
    }
    log(`the existing build does not work (${problem.split('\n')[0]}); rebuilding`);
  }

  if (!existsSync('/usr/include/faiss/Index.h')) {
    fail('FAISS headers not found (/usr/include/faiss/Index.h).', `Install them: apt-get install -y ${SYSTEM_PACKAGES}`);
  }
  const nodeGyp = findNodeGyp();
  if (!nodeGyp) fail('node-gyp not found (neither in node_modules nor bundled with npm).', 'Install npm or node-gyp.');
  const nodeDir = findNodeDir();
  if (!nodeDir) {
    fail(
      `headers for Node ${process.version} not found, and node-gyp cannot download them offline.`,
      'Install the headers (Debian: apt-get install -y libnode-dev, or use a Node.js whose prefix has include/node) or set npm_config_nodedir.',
    );
  }
  let addonApi;
  try {
    addonApi = dirname(createRequire(join(PKG_DIR, 'package.json')).resolve('node-addon-api/package.json'));
  } catch {
    fail('node-addon-api (a dependency of faiss-node) is missing from node_modules.', 'Run `npm ci` again.');
  }

  rmSync(WORK_DIR, { recursive: true, force: true });
  mkdirSync(WORK_DIR, { recursive: true });
  writeFileSync(join(WORK_DIR, 'faiss.cc'), patchSource(original));
  writeFileSync(join(WORK_DIR, 'faiss_compat.h'), COMPAT_HEADER);
  const gyp = {
    targets: [
      {
        target_name: 'faiss-node',
        sources: ['faiss.cc'],
        include_dirs: [addonApi],
        defines: ['NAPI_VERSION=6', 'NAPI_DISABLE_CPP_EXCEPTIONS'],
        // node-gyp's defaults turn RTTI and exceptions off; FAISS's readers/writers need both.
        'cflags!': ['-fno-exceptions', '-fno-rtti'],
        'cflags_cc!': ['-fno-exceptions', '-fno-rtti', '-std=gnu++17', '-std=gnu++14'],
        // -w: faiss-node's own warnings (unused variables) would bury real errors in the log.
        cflags_cc: ['-std=c++17', '-O3', '-w', '-frtti', '-fexceptions', '-fopenmp', '-include', join(WORK_DIR, 'faiss_compat.h')],
        ldflags: ['-fopenmp'],
        libraries: ['-lfaiss', '-llapack', '-lblas', '-fopenmp'],
      },
    ],
  };
  writeFileSync(join(WORK_DIR, 'binding.gyp'), `${JSON.stringify(gyp, null, 2)}\n`);

  log(`building faiss-node ${pkg.version} against the system FAISS with ${nodeGyp} (about a minute)`);
  const started = Date.now();
  const build = spawnSync(process.execPath, [nodeGyp, 'rebuild', `--nodedir=${nodeDir}`, '--release', '--jobs=max'], {
    cwd: WORK_DIR,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, npm_config_nodedir: nodeDir },
  });
  const built = join(WORK_DIR, 'build', 'Release', 'faiss-node.node');
  if (build.status !== 0 || !existsSync(built)) {
    fail(
      `node-gyp failed (exit ${build.status ?? build.signal}); see the compiler output above.`,
      `The build needs: apt-get install -y ${SYSTEM_PACKAGES}`,
    );
  }
  mkdirSync(dirname(TARGET), { recursive: true });
  copyFileSync(built, TARGET);
  const problem = smokeTest(TARGET);
  if (problem) fail(`the built module does not work:\n${problem}`);
  writeFileSync(STAMP, stampText);
  // The object files are 10+ MB and the module is all that is needed.
  rmSync(join(WORK_DIR, 'build'), { recursive: true, force: true });
  log(`built ${TARGET} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

main();
