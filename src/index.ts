export { createEngine, Engine } from './engine.js';
export type { CallOptions, EngineStats, ReadSettled } from './engine.js';
export { ERROR_CODES, ReadError, isReadErrorCode } from './errors.js';
export type { ErrorDetails, ReadErrorCode } from './errors.js';
export { DEFAULTS } from './options.js';
export type { EngineOptions } from './options.js';
export type { ReadRequest } from './request.js';
export type { BinaryResult, ReadResult, TextResult, Truncation } from './result.js';
export type { LineEnding, TextEncoding } from './core/sniff.js';
