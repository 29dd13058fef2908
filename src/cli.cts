#!/usr/bin/env node
// The `readpool` command as the package's `bin` names it (`dist/src/cli.cjs`). The build
// replaces this file's output with the command bundled as CommonJS (rolldown.config.ts); where
// the build could not bundle, this stands: it loads the command's ES modules (src/cli.ts).
void import('./cli.js');
