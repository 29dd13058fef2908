/**
 * readpool in-process: the engine with its own `read` tool (the readpool dialect), as a host
 * embeds it. What the model gets is the tool's content, notices included.
 */
import { createEngine } from '../../../src/index.js';
import { createTools } from '../../../src/tools.js';
import { payloadOf, type Payload, type System, type Window } from '../system.js';

/** The engine with its defaults (result cache on), as a host gets it and as `readpool serve` runs. */
export async function readpoolSystem(root: string): Promise<System> {
  const engine = await createEngine({ root });
  const [tool] = createTools(engine, 'readpool');
  if (tool === undefined) throw new Error('the readpool dialect has no tool');
  const call = async (input: Record<string, unknown>, session?: string): Promise<Payload> => {
    const out = await tool.execute(input, session === undefined ? {} : { session });
    const texts: string[] = [];
    const media: { mimeType: string; data: string }[] = [];
    for (const part of out.content) {
      if (part.type === 'text') texts.push(part.text);
      else media.push(part);
    }
    return payloadOf(texts, media, out.isError);
  };
  return {
    name: 'readpool',
    read: (path: string, window: Window, session?: string) => {
      const input: Record<string, unknown> = { path };
      if (window.tail !== undefined) input.offset = -window.tail;
      else if (window.offset !== undefined) input.offset = window.offset;
      if (window.limit !== undefined) input.limit = window.limit;
      return call(input, session);
    },
    media: (path: string, pages?: string) => call(pages === undefined ? { path } : { path, pages }),
    close: () => engine.close(),
  };
}
