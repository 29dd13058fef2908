/**
 * The scaffolding every dialect's golden tests share: the dialect workspace, an engine over it
 * (one worker thread) and the dialect's tools, made before the file's first test and closed
 * after its last. The suite's fields are read inside tests and hooks, once `beforeAll` has run.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { createEngine, type Engine, type EngineOptions } from '../../src/index.js';
import { createTools, type DialectName, type ToolContext, type ToolDefinition, type ToolOutput } from '../../src/tools.js';
import { makeDialectWorkspace, type DialectWorkspace } from './dialect-workspace.js';
import { removeTempDir } from './temp-dir.js';

export interface DialectSuite {
  /** The workspace: one object throughout, its fields filled in by `beforeAll`, so it can be destructured at the top level. */
  readonly ws: DialectWorkspace;
  readonly engine: Engine;
  /** The dialect's tools, in the order it lists them. */
  readonly tools: readonly ToolDefinition[];
  /** Its first tool: the only one, but for `mcp-filesystem`. */
  readonly tool: ToolDefinition;
  /** Calls the first tool, with no context unless one is given. */
  readonly read: (input: unknown, context?: ToolContext) => Promise<ToolOutput>;
}

export interface DialectSuiteOptions {
  /** Engine options besides the workspace root and one thread. */
  readonly engine?: Omit<EngineOptions, 'root' | 'roots' | 'threads'>;
  /** The names the dialect's tools must have, in order (by default it must have exactly one). */
  readonly toolNames?: readonly string[];
  /** Writes a file's own fixtures into the workspace, before the engine starts. */
  readonly prepare?: (ws: DialectWorkspace) => void;
}

/** Registers the hooks that make and close a dialect's suite; call it once, at a test file's top level. */
export function useDialectSuite(dialect: DialectName, options: DialectSuiteOptions = {}): DialectSuite {
  // Plain data, so the one object handed out now can be filled once the workspace exists.
  const ws = {} as DialectWorkspace;
  let made: { engine: Engine; tools: ToolDefinition[] } | null = null;
  beforeAll(async () => {
    Object.assign(ws, await makeDialectWorkspace());
    options.prepare?.(ws);
    const engine = await createEngine({ ...options.engine, root: ws.root, threads: 1 });
    const tools = createTools(engine, dialect);
    if (options.toolNames === undefined) expect(tools).toHaveLength(1);
    else expect(tools.map((tool) => tool.name)).toEqual(options.toolNames);
    made = { engine, tools };
  });
  afterAll(async () => {
    await made?.engine.close();
    if (Object.hasOwn(ws, 'base')) removeTempDir(ws.base);
  });
  const ready = () => {
    if (made === null) throw new Error(`the ${dialect} suite was used before its beforeAll ran`);
    return made;
  };
  const first = () => {
    const [tool] = ready().tools;
    if (tool === undefined) throw new Error(`the ${dialect} dialect has no tools`);
    return tool;
  };
  return {
    ws,
    get engine() {
      return ready().engine;
    },
    get tools() {
      return ready().tools;
    },
    get tool() {
      return first();
    },
    read: (input, context = {}) => first().execute(input, context),
  };
}
