/** `readpool tools --dialect NAME`: the dialect's tool definitions as JSON, for hosts that register tools by hand. */
import fs from '../node-fs.js';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '../engine.js';
import { createTools, DIALECT_NAMES, isDialectName } from '../tools.js';
import { errorText, type UsageError } from './args.js';
import { print } from './print.js';

export async function runTools(argv: readonly string[], usageError: UsageError): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: { dialect: { type: 'string', default: 'readpool' } } }));
  } catch (error) {
    usageError(errorText(error));
  }
  const dialect = values.dialect;
  if (!isDialectName(dialect)) usageError(`--dialect must be one of ${DIALECT_NAMES.join(', ')} (received ${JSON.stringify(dialect)})`);
  // Definitions do not depend on the root; an empty one keeps the engine from touching the cwd.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'readpool-tools-'));
  const engine = await createEngine({ root, threads: 1 });
  try {
    const tools = createTools(engine, dialect).map(({ name, title, aliases, description, inputSchema, outputSchema, annotations }) => ({
      name,
      title,
      ...(aliases.length > 0 ? { aliases } : {}),
      description,
      inputSchema,
      ...(outputSchema === undefined ? {} : { outputSchema }),
      annotations,
    }));
    print(`${JSON.stringify(tools, null, 2)}\n`);
    return 0;
  } finally {
    await engine.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
