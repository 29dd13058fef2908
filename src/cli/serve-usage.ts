/** The serve command's usage, apart from the command so that printing it loads no server. */
import { DIALECT_NAMES } from '../dialect-names.js';

export const SERVE_USAGE = `serve: an MCP server over stdio (or streamable HTTP with --http) for the dialect's tools.
  --root DIR      a directory the server may read (repeatable; default: the current directory).
                  An MCP client's roots narrow these, never widen them.
  --dialect NAME  which tools to serve: ${DIALECT_NAMES.join(', ')} (default readpool)
  --http PORT     serve streamable HTTP at http://HOST:PORT/mcp instead of stdio
  --host ADDR     address to bind with --http (default 127.0.0.1)
  --max-sessions N
                  with --http, the sessions held before a new one closes idle ones, the
                  longest idle first (default 512); sessions in use are never closed for it
  --session-idle SECONDS
                  with --http, also close a session that has had no request and no open
                  stream for this long (default: never for time alone); its client is then
                  answered 404, on which it must start a new session (some clients only
                  report an error)
  --threads N     worker threads that read text (default: one a core, one core in eight left
                  to the server's own thread from 8 cores on, at most 14); each holds about
                  10 MiB, so a server for one agent can do with fewer
  --cores N       CPU cores the server may count on (default: those Node sees); give a
                  container's CPU quota here, which Node 20 does not see

  READPOOL_TOKEN  when set, HTTP requests must send Authorization: Bearer <token>`;
