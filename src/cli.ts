#!/usr/bin/env node
/** The `readpool` command: dispatches to one module per command under `src/cli/`. */
import { DEFAULTS } from './options.js';
import { DIALECT_NAMES } from './dialect-names.js';
import { errorText } from './cli/args.js';
import { SERVE_USAGE } from './cli/serve-usage.js';
import { print } from './cli/print.js';

const USAGE = `usage: readpool read PATH [--offset N] [--limit N] [--column N] [--pages RANGE] [--root DIR]
                     [--max-tokens N] [--max-bytes N] [--json] [--sha256] [--allow-binary]
                     [--encoding NAME] [--out FILE]
       readpool read [PATH] --dialect NAME [--tool NAME] [--input JSON] [--json] [--out FILE]
       readpool read-many PATTERN... [--root DIR] [--limit N] [--max-files N] [--json]
       readpool serve [--root DIR]... [--dialect NAME] [--http PORT] [--host ADDR] [--max-sessions N]
                      [--session-idle SECONDS] [--threads N] [--cores N]
       readpool tools [--dialect NAME]

read: one file, numbered, with a notice saying how to read on.
  PATH            file to read, relative to the root or absolute inside it
  --offset N      first line to show, 1-based (default 1); negative counts from the end:
                  --offset=-100 shows the last 100 lines
  --limit N       most lines to show (default ${DEFAULTS.defaultLimit})
  --column N      read line --offset from character N on (1-based): for lines too long to show whole
  --pages RANGE   PDF pages to render, like 3 or 1-5 (at most 20)
  --root DIR      workspace the read is confined to (default: the current directory)
  --max-tokens N  cap on the estimated tokens of the output (default ${DEFAULTS.maxTokens})
  --max-bytes N   cap on the bytes of the output (default ${DEFAULTS.maxBytes})
  --json          print the whole result (or error) as JSON, media as base64
  --sha256        also compute the sha256 of the file
  --allow-binary  return files with NUL bytes as base64 instead of refusing them
  --encoding NAME how to decode a file that is not UTF-8: auto (default: recognised from its
                  first bytes), utf-8, or a legacy encoding (gb18030, shift_jis, euc-kr,
                  windows-1252, ...; labels such as GBK, latin1 or Shift-JIS are taken too)
  --out FILE      write an image or PDF page to FILE (several: FILE-1.jpg, FILE-2.jpg, ...)
  --dialect NAME  print what another tool would return: ${DIALECT_NAMES.join(', ')};
                  PATH fills the tool's path field, --input gives its other fields as JSON,
                  --tool picks one of a dialect's tools (mcp-filesystem has three)

read-many: every file the glob patterns match under --root (honouring its .gitignore), each
  under a --- path --- header; a progress bar on stderr on a terminal; at most --max-files (500).

${SERVE_USAGE}

tools: the dialect's tool definitions (name, description, JSON Schema) as JSON.

Exit status: 0 on success, 1 when a read fails (the error code is printed), 2 on bad usage.`;

function usageError(message: string): never {
  print(`readpool: ${message}\n\n${USAGE}\n`, 2);
  process.exit(2);
}

/** `--help` or `-h` among a command's arguments (before a `--` that ends the options). */
function asksForHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== undefined && asksForHelp(rest)) {
    print(`${USAGE}\n`);
    return 0;
  }
  switch (command) {
    // Each command loads only what it needs: a read starts in a fraction of the time the MCP
    // server's modules and every dialect's schemas would take to load.
    case 'read':
      return (await import('./cli/read-command.js')).runRead(rest, usageError);
    case 'read-many':
      return (await import('./cli/read-many-command.js')).runReadMany(rest, usageError);
    case 'serve':
      return (await import('./cli/serve-command.js')).runServe(rest, usageError);
    case 'tools':
      return (await import('./cli/tools-command.js')).runTools(rest, usageError);
    case '--help':
    case '-h':
    case 'help':
      print(`${USAGE}\n`);
      return 0;
    case undefined:
      return usageError('missing command');
    default:
      // A path where the command goes (`readpool README.md`): the read it most likely meant.
      return usageError(`unknown command ${JSON.stringify(command)}${command.includes('.') || command.includes('/') ? ` (to read a file: readpool read ${command})` : ''}`);
  }
}

// Output goes through `print` (a closed pipe ends the command quietly); `serve` watches its own
// stdout, which carries the protocol.
main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    print(`readpool: ${error instanceof Error ? (error.stack ?? error.message) : errorText(error)}\n`, 2);
    process.exitCode = 1;
  },
);
