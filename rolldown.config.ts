// The build's second step, after tsc (see package.json `build`): bundles what tsc wrote, in place.
//
// - The text and stat workers each become one CommonJS file, `NAME.cjs` beside tsc's module
//   (which the engine runs when the bundle is missing): each worker thread boots without resolving
//   and reading a graph of modules (about 40 ms a text thread instead of 53), and without starting
//   Node's ES module loader, which a `require` does not need (about 5 ms more). A `require`d entry
//   also starts under a host's `--input-type`, which an ES module worker file does not.
// - The package's entries (`readpool`, `readpool/tools`, `readpool/ai`) are bundled together, so
//   that `import('readpool')` reads a few files instead of thirty-odd. They share their chunks, so
//   a program that imports two entries holds one copy of each class (`err instanceof ReadError`
//   holds whichever entry threw it). Chunks stay in `dist/src`, beside the entries, because
//   workers are found relative to the module that starts them. Packages stay external: they load
//   from node_modules as they would unbundled, and a host's own zod is the one its schemas meet.
// - The `readpool` command is a process of its own, bundled apart with the packages it imports:
//   `readpool serve` imports the MCP SDK and zod, about 450 modules, whose resolving and loading
//   took longer than everything else it does before its first answer (spawn to the first
//   answered call: 276 to 283 ms bundled against 424 to 435, the official filesystem server 387
//   to 395, alternating). Only the packages with native code or worker files of their own stay
//   external (`CLI_EXTERNAL`). It is CommonJS, `cli.cjs` (the package's `bin`): Node reads each
//   chunk synchronously as it is required, where its ES module loader read them asynchronously,
//   one dynamic import after another, and started a loader a one-read command does not need
//   (`readpool read README.md`, spawn to exit: 156 against 169 ms, medians of 20, alternating).
//   Packages the command imports dynamically stay `import()`s, so ES-only ones load as before.
//
// Where rolldown cannot run (it needs Node 20.19 or later) the build warns and leaves tsc's
// output as it is, whose `cli.cjs` (src/cli.cts) imports tsc's `cli.js`: everything works, and
// starts more slowly.
import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'rolldown';

// Chunks are named by content hash: those of an earlier build would pile up beside the new ones.
for (const name of fs.readdirSync('dist/src')) if (name.startsWith('chunk-')) fs.rmSync(`dist/src/${name}`);

const external = (id: string): boolean => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0');

/**
 * Writes the licences of the packages a bundle inlines, beside it (`NAME`): their code ships in
 * `dist/src`, so their notices must too.
 */
function thirdPartyNotices(name: string): Plugin {
  return {
    name: 'third-party-notices',
    generateBundle(_options, bundle) {
      const packages = new Map<string, string>();
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        for (const id of output.moduleIds) {
          const found = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(id);
          if (found?.[1] !== undefined) packages.set(found[1], found[1]);
        }
      }
      const notices = [...packages.keys()].sort().map((dir) => {
        const { name: pkg, version, license } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; version: string; license?: string };
        const file = fs.readdirSync(dir).find((entry) => /^licen[cs]e/i.test(entry));
        const text = file === undefined ? `(no licence file; package.json says ${license ?? 'nothing'})` : fs.readFileSync(path.join(dir, file), 'utf8').trim();
        return `${pkg} ${version}\n\n${text}\n`;
      });
      this.emitFile({ type: 'asset', fileName: name, source: `The readpool command bundles these packages:\n\n${notices.join('\n---\n\n')}` });
    },
  };
}

/**
 * Bundles keep legal comments only, and escape non-ASCII characters (`charset: 'ascii'`): the
 * sources' doc comments were a third of some chunks, and a single non-ASCII character in one (a
 * `µ` in a comment, a `…` in a string) made V8 hold and scan the whole chunk as two-byte text.
 * Types and docs ship in the `.d.ts` files and the source maps.
 */
const SHIPPED_COMMENTS = { legal: true, annotation: false, jsdoc: false };
const ASCII = 'ascii' as const;

/** Packages the command's bundle leaves in node_modules: native code, or worker files they start. */
const CLI_EXTERNAL = ['sharp', 'mupdf', 'piscina', '@napi-rs/nice'];
const cliExternal = (id: string): boolean => id.startsWith('node:') || CLI_EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`));

export default defineConfig([
  ...['text-worker', 'text-host', 'stat-worker'].map((name) => ({
    input: `dist/workers/${name}.js`,
    platform: 'node' as const,
    output: { format: 'cjs' as const, file: `dist/workers/${name}.cjs`, sourcemap: true, comments: SHIPPED_COMMENTS, charset: ASCII },
    logLevel: 'warn' as const,
  })),
  {
    input: { cli: 'dist/src/cli.js' },
    platform: 'node',
    external: cliExternal,
    plugins: [thirdPartyNotices('cli-third-party-notices.txt')],
    output: { format: 'cjs', dir: 'dist/src', entryFileNames: '[name].cjs', chunkFileNames: 'chunk-cli-[name]-[hash].cjs', sourcemap: true, comments: SHIPPED_COMMENTS, charset: ASCII },
    logLevel: 'warn',
  },
  {
    input: {
      index: 'dist/src/index.js',
      tools: 'dist/src/tools.js',
      ai: 'dist/src/ai.js',
    },
    platform: 'node',
    external,
    output: { format: 'esm', dir: 'dist/src', entryFileNames: '[name].js', chunkFileNames: 'chunk-[name]-[hash].js', sourcemap: true, comments: SHIPPED_COMMENTS, charset: ASCII },
    logLevel: 'warn',
  },
]);
