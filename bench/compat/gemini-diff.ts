/**
 * The gemini-cli dialect against Gemini CLI's own `processSingleFileContent`, fixture by fixture
 * and window by window. The seed's 0-based `offset`/`limit` map to the function's 1-based,
 * inclusive `startLine = offset + 1`, `endLine = offset + limit`.
 *
 * Compared: the body the model reads (the dialect's `llmContent` without the seed's truncation
 * header), whether the header is there (the function's `isTruncated`), the lines it names
 * (`linesShown`, `originalLineCount`), `returnDisplay` and the error type.
 */
import path from 'node:path';
import type { Engine } from '../../src/engine.js';
import { createTools } from '../../src/tools.js';
import { outcomeOf, type CaseOutcome } from './diff.js';
import type { Fixture, FixtureSet } from './fixtures.js';
import { loadGeminiCore, type GeminiFileResult } from './peers.js';

interface SeedWindow {
  offset?: number;
  limit?: number;
}

const TEXT_WINDOWS: readonly SeedWindow[] = [{}, { offset: 0, limit: 10 }, { offset: 5, limit: 3 }, { offset: 1, limit: 2 }, { offset: 100, limit: 10 }, { offset: 1 }, { limit: 2 }];
const LONG_FILE_WINDOWS: readonly SeedWindow[] = [{ offset: 2000 }, { offset: 2399, limit: 201 }, { offset: 2500 }];
const OTHER_WINDOWS: readonly SeedWindow[] = [{}, { offset: 0, limit: 10 }];

function windowsOf(fixture: Fixture): readonly SeedWindow[] {
  if (fixture.kind !== 'text') return OTHER_WINDOWS;
  return fixture.name === 'lines-2500.txt' ? [...TEXT_WINDOWS, ...LONG_FILE_WINDOWS] : TEXT_WINDOWS;
}

/** What both sides are compared on. */
interface Answer {
  llmContent: unknown;
  truncated: boolean;
  linesShown: [number, number] | null;
  totalLines: number | null;
  returnDisplay: string;
  errorType: string | null;
}

function original(result: GeminiFileResult): Answer {
  const truncated = result.isTruncated === true;
  return {
    llmContent: result.llmContent,
    truncated,
    linesShown: truncated ? (result.linesShown ?? null) : null,
    totalLines: truncated ? (result.originalLineCount ?? null) : null,
    returnDisplay: result.returnDisplay,
    errorType: result.errorType ?? null,
  };
}

const HEADER = /^\nIMPORTANT: The file content has been truncated\.\nStatus: Showing lines (\d+)-(\d+) of (\d+) total lines\.\nAction: [^\n]*\n\n--- FILE CONTENT \(truncated\) ---\n/;

function dialect(data: { llmContent: unknown; returnDisplay: string; error?: { type: string } }): Answer {
  const header = typeof data.llmContent === 'string' ? HEADER.exec(data.llmContent) : null;
  return {
    llmContent: header === null ? data.llmContent : (data.llmContent as string).slice(header[0].length),
    truncated: header !== null,
    linesShown: header === null ? null : [Number(header[1]), Number(header[2])],
    totalLines: header === null ? null : Number(header[3]),
    returnDisplay: data.returnDisplay,
    errorType: data.error?.type ?? null,
  };
}

function label(window: SeedWindow): string {
  const parts = Object.entries(window).map(([key, value]) => `${key}=${String(value)}`);
  return parts.length === 0 ? 'whole' : parts.join(' ');
}

export async function* geminiCases(engine: Engine, set: FixtureSet): AsyncGenerator<CaseOutcome> {
  const core = await loadGeminiCore();
  const [tool] = createTools(engine, 'gemini-cli');
  if (tool === undefined) throw new Error('the gemini-cli dialect has no tool');
  const run = async (id: string, file: string, window: SeedWindow, input: Record<string, unknown>): Promise<CaseOutcome> => {
    const startLine = window.offset === undefined ? undefined : window.offset + 1;
    const endLine = window.limit === undefined ? undefined : (window.offset ?? 0) + window.limit;
    const real = await core.processSingleFileContent(path.resolve(set.root, file), set.root, {}, startLine, endLine);
    const ours = await tool.execute({ ...input, ...window }, { session: 'compat' });
    return outcomeOf(id, original(real), dialect(ours.data as Parameters<typeof dialect>[0]));
  };
  for (const fixture of set.fixtures) {
    for (const window of windowsOf(fixture)) {
      yield await run(`gemini-cli ${fixture.name} ${label(window)}`, fixture.path, window, { absolute_path: fixture.path });
    }
  }
  yield await run('gemini-cli lf.txt (relative path) whole', 'lf.txt', {}, { absolute_path: 'lf.txt' });
  yield await run('gemini-cli ../outside.txt whole', set.outside, {}, { absolute_path: set.outside });
}
