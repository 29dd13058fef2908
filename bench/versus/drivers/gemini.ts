/**
 * Gemini CLI's read_file engine, `processSingleFileContent` of @google/gemini-cli-core, loaded
 * from bench/peers by the compat loader. Its llmContent is what the model gets: a string for
 * text, `{ inlineData }` for images and PDFs (the whole file, no pages).
 */
import { loadGeminiCore } from '../../compat/peers.js';
import { lineRange, payloadOf, Unsupported, type Payload, type System, type Window } from '../system.js';

/** Gemini CLI's default window (DEFAULT_MAX_LINES_TEXT_FILE). */
const DEFAULT_LINES = 2000;

function toPayload(result: { llmContent: unknown; error?: string }): Payload {
  const content = result.llmContent;
  if (typeof content === 'string') return payloadOf([content], [], result.error !== undefined);
  const inline = (content as { inlineData?: { mimeType: string; data: string } } | null)?.inlineData;
  if (inline !== undefined) return payloadOf([], [inline], result.error !== undefined);
  return payloadOf([JSON.stringify(content)], [], result.error !== undefined);
}

export async function geminiSystem(root: string): Promise<System> {
  // gemini-cli-core's debug logger writes to stdout, which carries the measured rows.
  console.log = console.debug = console.info = (...args: unknown[]) => process.stderr.write(`${args.map(String).join(' ')}\n`);
  const core = await loadGeminiCore();
  return {
    name: 'gemini-cli-core',
    read: async (path: string, window: Window) => {
      if (window.tail !== undefined && window.totalLines === undefined) throw new Unsupported('read_file has no tail parameter');
      const explicit = window.offset !== undefined || window.limit !== undefined || window.tail !== undefined;
      if (!explicit) return toPayload(await core.processSingleFileContent(path, root, {}));
      const { start, count } = lineRange(window, DEFAULT_LINES, 'read_file');
      return toPayload(await core.processSingleFileContent(path, root, {}, start, start + count - 1));
    },
    media: async (path: string) => toPayload(await core.processSingleFileContent(path, root, {})),
    close: () => Promise.resolve(),
  };
}
