import path from 'node:path';
import type { EngineOptions } from '../../src/index.js';
import { writeGeneratedLines } from './generated-file.js';

/**
 * Engine options whose workers are capped at a 24 MiB heap while the output caps are raised far
 * past it: reading the file written by `writeWideFile` makes the worker run out of memory.
 */
export const CRAMPED: Omit<EngineOptions, 'root' | 'roots'> = {
  threads: 1,
  workerHeapMb: 24,
  maxLineChars: 1_000_000,
  maxBytes: 64 * 1024 ** 2,
  maxTokens: 64 * 1024 ** 2,
};

/** 48 lines of a million characters at `root/name`: rendering them whole needs over 24 MiB. */
export function writeWideFile(root: string, name: string): void {
  writeGeneratedLines(path.join(root, name), 48, () => 'w'.repeat(999_999));
}
