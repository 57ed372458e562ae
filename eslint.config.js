// ESLint flat config. The layering rules turn every row of the folder table in docs/design.md §1
// into a lint error (test/lint-boundaries.test.ts proves each one fires); the size rules warn when a
// file or a function grows past what one reader takes in (docs/architecture.md, "Size").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const LAYERS = 'cli|main|preload|renderer|engine';
const intoFolder = (names) => `^\\.{1,2}/(?:\\.\\./)*(?:src/)?(?:${names})/`;
const NODE_BUILTINS =
  '^(?:node:.*|fs|fs/promises|path|os|child_process|crypto|net|http|https|url|worker_threads|stream|util|events|zlib|tls|dgram|dns|cluster|module|process|vm)$';

const rule = (patterns) => ['error', { patterns }];
/** A forbidden import; its message says where the rule is written down. */
const forbid = (regex, message, section = '§1') => ({ regex, message: `${message} (docs/design.md ${section})` });

/**
 * docs/design.md §3, one owner for SQL: only src/engine/store opens SQLite and runs SQL; the rest of
 * the engine holds its typed handles (store/connection.ts) and calls its queries (store/queries).
 */
const SQL_OUTSIDE_STORE = [
  forbid('^better-sqlite3(/|$)', 'SQL has one owner: only src/engine/store may import better-sqlite3. Add a query to src/engine/store/queries and call it with the typed handle.', '§3'),
  {
    regex: '(^|/)store/connection(\\.ts)?$',
    importNames: ['sqliteOf', 'asReadConnection', 'asWriteConnection'],
    message: 'The SQLite connection behind a store handle is the store layer\'s: add a query to src/engine/store/queries instead. (docs/design.md §3)',
  },
];
const ENGINE = [
  forbid('^electron(/|$)', 'src/engine is plain Node: it must never import electron.'),
  forbid('^(react|react-dom|zustand)(/|$)', 'src/engine must not import UI libraries.'),
  forbid(intoFolder('cli|main|preload|renderer'), 'src/engine may import only src/shared, Node and npm packages.'),
];
const CLI = [
  forbid('^electron(/|$)', 'src/cli runs in plain Node: it must never import electron.'),
  forbid('^(react|react-dom|zustand)(/|$)', 'src/cli must not import UI libraries.'),
  forbid(intoFolder('main|preload|renderer'), 'src/cli may import only src/engine and src/shared.'),
];

/**
 * Size guards for shipped code, as warnings: `npm run lint` still passes, and the warnings list what
 * to split next (docs/architecture.md, "Size"). Lines are counted as an editor shows them, comments
 * and blank lines included; complexity is ESLint's cyclomatic count.
 */
export const sizeRules = {
  'max-lines': ['warn', { max: 600, skipBlankLines: false, skipComments: false }],
  'max-lines-per-function': ['warn', { max: 150, skipBlankLines: false, skipComments: false, IIFEs: true }],
  complexity: ['warn', { max: 30 }],
};

/** docs/design.md §1: what each folder may import. */
export const boundaryRules = {
  'src/shared/**': rule([
    forbid('^(?!zod$|zod/|\\./)', 'src/shared is the contract: it may import nothing but zod and its own files.'),
  ]),
  'src/engine/**': rule([...ENGINE, ...SQL_OUTSIDE_STORE]),
  // The store layer owns SQL (later entries replace the rule for the files they match).
  'src/engine/store/**': rule(ENGINE),
  'src/cli/**': rule([...CLI, ...SQL_OUTSIDE_STORE]),
  // Exceptions, each with its reason: the benchmarks compare Synapsis with other engines, plain
  // SQLite FTS5 and sqlite-vec among them, on connections of their own; doctor checks that the
  // native module loads and has FTS5 and the trigram tokenizer, before any store is opened.
  'src/cli/bench/**': rule(CLI),
  'src/cli/doctor.ts': rule(CLI),
  'src/main/**': rule([
    ...SQL_OUTSIDE_STORE,
    forbid('^(react|react-dom|zustand)(/|$)', 'src/main must not import UI libraries.'),
    forbid(intoFolder('cli|preload|renderer'), 'src/main may import src/shared, electron and the engine entry only.'),
    forbid('^\\.{1,2}/(?:\\.\\./)*engine/(?!index(\\.ts)?$)', 'src/main may use the engine only through src/engine/index.ts.'),
  ]),
  'src/preload/**': rule([
    forbid(intoFolder(LAYERS.replace('|preload', '')), 'src/preload may import only src/shared and electron.'),
    forbid(NODE_BUILTINS, 'src/preload is sandboxed: no Node built-ins.'),
  ]),
  'src/renderer/**': rule([
    forbid('^electron(/|$)', 'src/renderer must not import electron: use window.synapsis.'),
    forbid(intoFolder('cli|main|preload|engine'), 'src/renderer may import only src/shared and browser APIs: go through the contract.'),
    forbid(NODE_BUILTINS, 'src/renderer runs in the browser: no Node built-ins.'),
    forbid('^(better-sqlite3|node-llama-cpp|chokidar|faiss-node|usearch)(/|$)', 'src/renderer must not load native engine modules.'),
  ]),
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test/lint-fixtures/**', 'resources/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  // Tests may import their runner and helpers; the layering applies to shipped code.
  ...Object.entries(boundaryRules).map(([glob, value]) => ({
    files: [glob],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-restricted-imports': value },
  })),
  { files: ['src/**/*.ts', 'src/**/*.tsx'], ignores: ['**/*.test.ts', '**/*.test.tsx'], rules: sizeRules },
);
