import { createDenyMatcher, type DenyMatcher } from '../core/deny-rules.js';
import type { WorkerConfig } from '../wire.js';

/** What a worker compiles once from its `WorkerConfig`. */
export interface ReaderContext {
  readonly roots: readonly string[];
  readonly deny: DenyMatcher;
  readonly maxFileBytes: number;
  readonly maxBinaryBytes: number;
}

export function createReaderContext(config: WorkerConfig): ReaderContext {
  return {
    roots: config.roots,
    deny: createDenyMatcher(config),
    maxFileBytes: config.maxFileBytes,
    maxBinaryBytes: config.maxBinaryBytes,
  };
}
