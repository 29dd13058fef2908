/**
 * pi's read tool (@mariozechner/pi-coding-agent's `createReadTool(cwd).execute`), loaded from
 * bench/peers. 1-based offset and limit, 2000 lines or 50 KB a call; images resized and sent
 * as attachments; no tail parameter and no PDF support.
 */
import path from 'node:path';
import { loadPiCodingAgent } from '../../compat/peers.js';
import { lineRange, payloadOf, Unsupported, type System, type Window } from '../system.js';

export async function piSystem(root: string): Promise<System> {
  const pi = await loadPiCodingAgent();
  const tool = pi.createReadTool(root);
  let calls = 0;
  const call = async (input: { path: string; offset?: number; limit?: number }) => {
    try {
      const out = await tool.execute(`call-${++calls}`, input);
      const texts = out.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
      const media = out.content.flatMap((part) => (part.type === 'image' ? [part] : []));
      return payloadOf(texts, media, false);
    } catch (error) {
      // The agent loop turns a thrown error into an error result with its message.
      return payloadOf([error instanceof Error ? error.message : String(error)], [], true);
    }
  };
  return {
    name: 'pi-coding-agent',
    read: (file: string, window: Window) => {
      if (window.tail !== undefined && window.totalLines === undefined) throw new Unsupported('read has no tail parameter');
      const explicit = window.offset !== undefined || window.limit !== undefined || window.tail !== undefined;
      if (!explicit) return call({ path: file });
      const { start, count } = lineRange(window, 2000, 'read');
      return call({ path: file, offset: start, limit: count });
    },
    media: (file: string, pages?: string) => {
      if (path.extname(file).toLowerCase() === '.pdf') {
        throw new Unsupported(`no PDF support: read decodes a PDF's bytes as UTF-8 text${pages === undefined ? '' : ', and takes no pages'}`);
      }
      return call({ path: file });
    },
    close: () => Promise.resolve(),
  };
}
