import { createDenyMatcher, type DenyMatcher } from '../core/deny-rules.js';
import type { SandboxConfig } from '../wire.js';

/** What a worker compiles once from its sandbox settings. */
export interface ReaderContext {
  readonly roots: readonly string[];
  readonly deny: DenyMatcher;
  readonly maxFileBytes: number;
  readonly maxBinaryBytes: number;
}

export function createReaderContext(config: SandboxConfig): ReaderContext {
  return {
    roots: config.roots,
    deny: createDenyMatcher(config),
    maxFileBytes: config.maxFileBytes,
    maxBinaryBytes: config.maxBinaryBytes,
  };
}
