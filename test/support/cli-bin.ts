/**
 * The `readpool` command as the package's `bin` names it, built (`npm test` builds first): the
 * tests run the file an install links, whatever the build calls it.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const REPO = new URL('../../', import.meta.url);
const { bin } = JSON.parse(fs.readFileSync(new URL('package.json', REPO), 'utf8')) as { bin: { readpool: string } };

export const CLI = fileURLToPath(new URL(bin.readpool, REPO));
