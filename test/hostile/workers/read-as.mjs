// Run as a separate process (under another uid when the suite runs as root, since root reads a
// mode-000 file): reads argv[3] through a fresh engine rooted at argv[2], then ok.txt, and
// prints both answers as one JSON line.
import { createEngine } from '../../../dist/src/index.js';

const [root, requested] = process.argv.slice(2);
const engine = await createEngine({ root, threads: 1 });
const answer = async (path) => {
  try {
    const result = await engine.read({ path });
    return { ok: true, kind: result.kind, content: result.content ?? null };
  } catch (error) {
    return { ok: false, code: error.code, message: error.message };
  }
};
const first = await answer(requested);
const next = await answer('ok.txt');
await engine.close();
process.stdout.write(`${JSON.stringify({ first, next, uid: process.getuid() })}\n`);
