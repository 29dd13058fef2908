/**
 * One MCP session: an SDK `Server` that lists a dialect's tools and calls them as one readpool
 * session (its own unchanged-file stubs and queue lane), within the roots the client allows.
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  type ListRootsResult,
  RootsListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Engine } from '../engine.js';
import type { ToolContext, ToolDefinition } from '../dialects/tool.js';
import { callResultOf, toolOf } from './content.js';
import { narrowRoots, rootPath } from './roots.js';

export interface SessionOptions {
  readonly engine: Engine;
  readonly tools: readonly ToolDefinition[];
  readonly version: string;
  /** Diagnostics, one line each: stderr for a server (stdout carries the protocol on stdio). */
  readonly log: (line: string) => void;
  /** Counts calls in flight, so a shutdown can answer them before it closes the engine. */
  readonly track: <T>(work: Promise<T>) => Promise<T>;
}

/** How long a call waits for the client's roots before it goes on with the served roots. */
const ROOTS_TIMEOUT_MS = 5_000;

/** A server for one client connection, with its own readpool session id. */
export function createSession(options: SessionOptions): { server: Server; session: string } {
  const { engine, tools, log } = options;
  const session = `mcp-${randomUUID()}`;
  const server = new Server({ name: 'readpool', version: options.version }, { capabilities: { tools: {} } });
  // A tool answers to its aliases too (names the original tool also had), unlisted.
  const byName = new Map(tools.flatMap((tool) => [tool.name, ...tool.aliases].map((name) => [name, tool] as const)));
  /** The client's roots narrowed to the engine's; undefined while the client sets none. */
  let roots: readonly string[] | undefined;
  /**
   * The client's roots are asked for on the first call and again after each list_changed, from
   * within that call: over streamable HTTP a request the server sends on its own may find no
   * stream to the client yet, while one tied to a call travels on that call's response stream.
   */
  let rootsAsked: Promise<void> | null = null;
  const askRoots = (ask: () => Promise<ListRootsResult>): Promise<void> => {
    if (server.getClientCapabilities()?.roots === undefined) return Promise.resolve();
    rootsAsked ??= (async () => {
      try {
        const listed = await ask();
        const wanted = listed.roots.map((root) => rootPath(root.uri)).filter((root): root is string => root !== null);
        roots = narrowRoots(engine.roots, wanted);
        // Stubs stand for content the client read under the old roots: drop them.
        engine.forgetSession(session);
        log(`session ${session}: roots ${roots.length === 0 ? '(none inside the served roots)' : roots.join(', ')}`);
      } catch (error) {
        log(`session ${session}: roots/list failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    })();
    return rootsAsked;
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    rootsAsked = null;
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(toolOf) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = byName.get(request.params.name);
    if (tool === undefined) {
      // A result the model can act on, not a protocol error.
      const names = tools.map((known) => known.name).join(', ');
      return { content: [{ type: 'text', text: `There is no tool named ${JSON.stringify(request.params.name)} on this server. Call one of: ${names}.` }], isError: true };
    }
    const token = request.params._meta?.progressToken;
    // Progress sent before the result, so that none arrives after the client stopped listening.
    const progressSent: Promise<void>[] = [];
    const call = async () => {
      await askRoots(() => extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema, { timeout: ROOTS_TIMEOUT_MS }));
      const context: ToolContext = {
        session,
        signal: extra.signal,
        ...(roots === undefined ? {} : { roots }),
        ...(token === undefined
          ? {}
          : {
              onProgress: (done: number, total: number) =>
                void progressSent.push(
                  extra
                    .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done, total } })
                    .catch(() => undefined),
                ),
            }),
      };
      const output = await tool.execute(request.params.arguments ?? {}, context);
      await Promise.all(progressSent);
      return callResultOf(output, tool);
    };
    return options.track(call());
  });
  return { server, session };
}
