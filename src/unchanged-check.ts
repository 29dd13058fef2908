import type { SessionLedger } from './cache/sessions.js';
import { describeChange } from './dialects/readpool-notices.js';
import type { UnchangedCheck } from './engine-types.js';
import { ReadError } from './errors.js';
import { statFile } from './io/probe.js';
import type { ReadLedger } from './read-ledger.js';
import type { ReadPipeline } from './read-pipeline.js';
import { versionKey } from './io/stat-wire.js';
import type { Sandbox } from './sandbox.js';

/** What the check reads: the engine's sandbox, session marks, counters and read path. */
export interface CheckParts {
  readonly sandbox: Sandbox;
  readonly sessions: SessionLedger;
  readonly ledger: ReadLedger;
  readonly pipeline: ReadPipeline;
}

/**
 * Has `path` changed since `session` last read it? By version first (no read at all), then by
 * content hash, so a touch or an identical rewrite is not a change. With `sha256`, compares the
 * file's current sha256 to that instead (the digest of the content a model saw).
 */
export async function checkUnchanged(parts: CheckParts, session: string, path: string, expect: { readonly sha256?: string }): Promise<UnchangedCheck> {
const { sandbox, sessions, ledger, pipeline } = parts;
  const located = sandbox.locate(path);
  const mark = located.ok ? (sessions.last(session, located.absolute) ?? null) : null;
  const stat = located.ok ? statFile(located.absolute) : null;
  const version = stat === null ? null : versionKey(stat);
  const answer = (unchanged: boolean, reason: UnchangedCheck['reason']): UnchangedCheck => ({
    unchanged,
    reason,
    message: unchanged ? null : describeChange(reason, path, mark, stat === null ? null : Number(stat.size)),
    lastRead: mark,
  });
  if (expect.sha256 === undefined && mark === null) return answer(false, 'not_read');
  if (stat === null || version === null) return answer(false, mark === null && expect.sha256 === undefined ? 'not_read' : 'deleted');
  if (expect.sha256 === undefined && mark?.settled === true && mark.version === version) return answer(true, 'same_version');
  const wanted = expect.sha256 ?? mark?.sha256 ?? null;
  const known = pipeline.facts.get(version);
  let current = wanted !== null ? known?.sha256 : known?.xxh64;
  if (current !== undefined && current !== null) ledger.hashHits++;
  else {
    try {
      const result = await pipeline.read({ path, limit: 1, allowBinary: true, ...(wanted !== null ? { hash: 'sha256' as const } : {}) }, undefined);
      current = result.kind === 'unchanged' ? null : wanted !== null ? result.sha256 : result.xxh64;
    } catch (error) {
      if (error instanceof ReadError && error.code === 'not_found') return answer(false, 'deleted');
      // Anything else (now denied, outside the root, too large, unreadable): not what was read.
      if (error instanceof ReadError && error.code !== 'internal' && error.code !== 'closed') return answer(false, 'modified');
      throw error;
    }
  }
  const same = current !== null && current === (wanted ?? mark?.xxh64);
  return answer(same, same ? 'same_content' : 'modified');
}
