import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['.scratch/', 'dist/', 'node_modules/', 'bench/.corpus/', 'bench/.data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'TSEnumDeclaration', message: 'Use an as-const object, not an enum.' }],
    },
  },
  {
    // V8 allocates a function written straight into a property (`x.f = () => ...`) in the old
    // generation. Made per read, such a closure keeps its read's objects, and whatever they are
    // given later, alive through every young GC until a full one (README, "Where the time goes").
    files: ['src/**/*.ts', 'workers/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use an as-const object, not an enum.' },
        {
          selector: 'AssignmentExpression[operator=/^(=|\\?\\?=|\\|\\|=|&&=)$/][left.type="MemberExpression"] > :matches(ArrowFunctionExpression, FunctionExpression).right',
          message: 'Assign a function from a local const or a function declaration, not a literal: V8 allocates a function literal assigned to a property in the old generation, where it keeps what it captures alive until a full GC.',
        },
      ],
    },
  },
  {
    // An ES import of `node:fs` builds the namespace of all its exports, loading fs's streams,
    // promises and watchers with the package (about 5 ms of `import('readpool')`): see src/node-fs.ts.
    files: ['src/**/*.ts', 'workers/**/*.ts'],
    ignores: ['src/node-fs.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'node:fs', message: "Import fs from src/node-fs.ts: an ES import of 'node:fs' loads its lazy exports.", allowTypeImports: true }] },
      ],
    },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Plain worker and child-process entries the hostile suite runs as they are (Node 20 threads
    // load no TypeScript), and the script that compiles the project's WebAssembly (`npm run wasm`).
    files: ['test/hostile/workers/*.mjs', 'test/support/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false, project: null },
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', URL: 'readonly' },
    },
  },
);
