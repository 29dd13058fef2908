/**
 * Gemini CLI's read_file, for real: `processSingleFileContent` (dist/src/utils/fileUtils.js) and
 * the `ReadFileTool` around it (dist/src/tools/read-file.js, which adds the truncation header),
 * run on every fixture and window.
 *
 * 0.61.0's parameters are 1-based and inclusive: `startLine`/`endLine` of the function,
 * `start_line`/`end_line` of the tool. A 0-based `offset` and `limit` map to
 * `startLine = offset + 1`, `endLine = offset + limit`.
 */
import path from 'node:path';
import type { Fixture, FixtureSet } from './fixtures.js';
import {
  loadGeminiCore,
  loadGeminiToolSets,
  type GeminiCore,
  type GeminiDeclaration,
  type GeminiFileResult,
  type GeminiReadFileParams,
  type GeminiReadFileTool,
  type GeminiToolConfig,
  type GeminiToolResult,
} from './peers.js';

export interface GeminiWindow {
  label: string;
  /** 1-based, as passed to the real function and tool */
  startLine?: number;
  endLine?: number;
}

export interface GeminiCase {
  fixture: string;
  /** the path handed over: absolute unless the case says otherwise */
  filePath: string;
  window: GeminiWindow;
  processSingleFileContent: GeminiFileResult;
  /** the tool's result; absent for cases the tool cannot express */
  readFileTool?: GeminiToolResult;
}

export interface GeminiProbe {
  declarations: { legacy: GeminiDeclaration; gemini3: GeminiDeclaration };
  cases: GeminiCase[];
}

function win(label: string, startLine?: number, endLine?: number): GeminiWindow {
  const window: GeminiWindow = { label };
  if (startLine !== undefined) window.startLine = startLine;
  if (endLine !== undefined) window.endLine = endLine;
  return window;
}

const WHOLE = win('whole file (no start/end)');

/** The windows every text fixture is read with. */
const TEXT_WINDOWS: readonly GeminiWindow[] = [
  WHOLE,
  win('offset 0 limit 10 -> start 1 end 10', 1, 10),
  win('offset 5 limit 3 -> start 6 end 8', 6, 8),
  win('offset 1 limit 2 -> start 2 end 3', 2, 3),
  win('offset 100 limit 10 (past end) -> start 101 end 110', 101, 110),
  win('start only: 2', 2),
  win('end only: 2', undefined, 2),
  win('start 0 end 2 (start below 1)', 0, 2),
  win('start 3 end 2 (start after end)', 3, 2),
];

/** Extra windows for the 2 500-line file. */
const LONG_FILE_WINDOWS: readonly GeminiWindow[] = [
  win('start only: 2001 (the rest)', 2001),
  win('start 2400 end 2600 (end past EOF)', 2400, 2600),
  win('start 2501 (the empty line after the last newline)', 2501),
];

/** A config holding only what ReadFileTool calls: every path under `root` is readable. */
function stubConfig(root: string): GeminiToolConfig {
  return {
    getTargetDir: () => root,
    validatePathAccess: (absolutePath) => {
      const relative = path.relative(root, absolutePath);
      const inside = relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
      return inside ? null : `stub: ${absolutePath} outside ${root}`;
    },
    getFileSystemService: () => ({}),
    getFileFilteringOptions: () => ({ respectGitIgnore: false, respectGeminiIgnore: false }),
    getUsageStatisticsEnabled: () => false,
    getMemoryContextManager: () => undefined,
  };
}

function toolParams(filePath: string, window: GeminiWindow): GeminiReadFileParams {
  const params: GeminiReadFileParams = { file_path: filePath };
  if (window.startLine !== undefined) params.start_line = window.startLine;
  if (window.endLine !== undefined) params.end_line = window.endLine;
  return params;
}

function windowsFor(fixture: Fixture): readonly GeminiWindow[] {
  if (fixture.kind !== 'text') return [WHOLE, win('offset 0 limit 10 -> start 1 end 10', 1, 10)];
  if (fixture.name === 'lines-2500.txt') return [...TEXT_WINDOWS, ...LONG_FILE_WINDOWS];
  return TEXT_WINDOWS;
}

async function runCase(
  core: GeminiCore,
  tool: GeminiReadFileTool | undefined,
  set: FixtureSet,
  name: string,
  filePath: string,
  window: GeminiWindow,
): Promise<GeminiCase> {
  const absolute = path.resolve(set.root, filePath);
  const direct = await core.processSingleFileContent(absolute, set.root, {}, window.startLine, window.endLine);
  const result: GeminiCase = { fixture: name, filePath, window, processSingleFileContent: direct };
  if (tool !== undefined) {
    result.readFileTool = await tool.validateBuildAndExecute(toolParams(filePath, window), new AbortController().signal);
  }
  return result;
}

export async function probeGemini(set: FixtureSet): Promise<GeminiProbe> {
  const core = await loadGeminiCore();
  const sets = await loadGeminiToolSets();
  const tool = new core.ReadFileTool(stubConfig(set.root), {});
  const cases: GeminiCase[] = [];
  for (const fixture of set.fixtures) {
    for (const window of windowsFor(fixture)) {
      cases.push(await runCase(core, tool, set, fixture.name, fixture.path, window));
    }
  }
  // A path relative to the target dir (the tool resolves it; the function gets it resolved).
  cases.push(await runCase(core, tool, set, 'lf.txt', 'lf.txt', WHOLE));
  // The function itself does not check the root; the tool's check is Config's (stubbed here).
  cases.push(await runCase(core, undefined, set, 'outside.txt', set.outside, WHOLE));
  return {
    declarations: { legacy: sets.DEFAULT_LEGACY_SET.read_file, gemini3: sets.GEMINI_3_SET.read_file },
    cases,
  };
}
