// Compiles each WebAssembly text source in src/core into the TypeScript module beside it
// (`npm run wasm`), or with `--check` exits 1 when a committed module is not what its source
// compiles to.
import fs from 'node:fs';
import wabtInit from 'wabt';

/** Each source, the module it compiles to, and the name of the base64 constant there. */
const MODULES = [
  { source: 'line-feeds.wat', target: 'line-feeds-wasm.ts', name: 'LINE_FEEDS_WASM' },
  { source: 'region-render.wat', target: 'region-render-wasm.ts', name: 'REGION_RENDER_WASM' },
];

const wabt = await wabtInit();
let stale = 0;
for (const { source, target, name } of MODULES) {
  const sourceUrl = new URL(`../../src/core/${source}`, import.meta.url);
  const targetUrl = new URL(`../../src/core/${target}`, import.meta.url);
  const parsed = wabt.parseWat(source, fs.readFileSync(sourceUrl, 'utf8'), { simd: true });
  parsed.validate();
  const { buffer } = parsed.toBinary({});
  parsed.destroy();
  const module = [
    `// Compiled from ${source} by \`npm run wasm\`; edit that file, not this one.`,
    `export const ${name} = '${Buffer.from(buffer).toString('base64')}';`,
    '',
  ].join('\n');
  if (!process.argv.includes('--check')) {
    fs.writeFileSync(targetUrl, module);
  } else if (!fs.existsSync(targetUrl) || fs.readFileSync(targetUrl, 'utf8') !== module) {
    console.error(`src/core/${target} is not what ${source} compiles to: run \`npm run wasm\``);
    stale++;
  }
}
if (stale > 0) process.exit(1);
