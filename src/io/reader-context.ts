import { denyMatcherOf, type DenyMatcher } from '../core/deny-matcher.js';
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
    deny: denyMatcherOf(config.deny),
    maxFileBytes: config.maxFileBytes,
    maxBinaryBytes: config.maxBinaryBytes,
  };
}
