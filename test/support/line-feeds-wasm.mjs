// Compiles src/core/line-feeds.wat into src/core/line-feeds-wasm.ts (`npm run wasm`), or with
// `--check` exits 1 when the committed module is not what the source compiles to.
import fs from 'node:fs';
import wabtInit from 'wabt';

const source = new URL('../../src/core/line-feeds.wat', import.meta.url);
const target = new URL('../../src/core/line-feeds-wasm.ts', import.meta.url);

const wabt = await wabtInit();
const parsed = wabt.parseWat('line-feeds.wat', fs.readFileSync(source, 'utf8'), { simd: true });
parsed.validate();
const { buffer } = parsed.toBinary({});
parsed.destroy();
const module = [
  '// Compiled from line-feeds.wat by `npm run wasm`; edit that file, not this one.',
  `export const LINE_FEEDS_WASM = '${Buffer.from(buffer).toString('base64')}';`,
  '',
].join('\n');

if (!process.argv.includes('--check')) {
  fs.writeFileSync(target, module);
} else if (!fs.existsSync(target) || fs.readFileSync(target, 'utf8') !== module) {
  console.error('src/core/line-feeds-wasm.ts is not what line-feeds.wat compiles to: run `npm run wasm`');
  process.exit(1);
}
