import os from 'node:os';

/** Options for {@link createEngine}. Every field is optional except a root. */
export interface EngineOptions {
  /** The workspace directory reads are confined to. Give `root` or `roots`, not both. */
  root?: string;
  /** Several workspace directories; relative paths resolve against the first. */
  roots?: readonly string[];
  /**
   * CPU cores the engine may count on: how many busy threads are worth keeping busy, and whether
   * a worker holds a second batch (see README, Scheduling). Default: `os.availableParallelism()`,
   * which on Node 20 sees CPU affinity and cpusets but not a container's CPU quota: on a host
   * given 2 CPUs by quota, set 2.
   */
  cores?: number;
  /**
   * Worker threads in the text pool, at most `MAX_THREADS` (1 024). Default:
   * `defaultThreads(cores)`, one a core up to 7 cores, one core in eight left to the host thread
   * beyond (14 on 16 cores), and never more than 14: see `defaultThreads`.
   */
  threads?: number;
  /**
   * When the text pool's threads start. `'now'` (the default): with the engine, so that they
   * are ready by the time reads come (once the host can read, or right after it has answered a
   * first small read that was waiting). `'when-needed'`: when a read needs one, for a program that
   * may read only a small file or two and exit (the `readpool read` command). Either way a batch
   * of small reads that waits alone before any thread is ready is answered on the calling thread
   * (see README, Sandbox).
   */
  startThreads?: 'now' | 'when-needed';
  /**
   * CPU priority of the worker threads, as a nice increment from 0 (the host's own priority)
   * to 19 (lowest). Lower-priority workers yield a core to the host's thread at once, which
   * keeps its event loop responsive while the pool is busy. Default 10.
   */
  workerNice?: number;
  /**
   * Cap on each worker's JavaScript heap (V8 old generation), in MiB. A read that would need
   * more fails with `internal` and its worker is replaced; the other reads of its batch are
   * retried one by one and succeed. Cannot be combined with a process-wide
   * `--max-old-space-size`. Default: V8's own limit.
   */
  workerHeapMb?: number;
  /** Requests waiting for a worker before new ones are refused with `overloaded`. Default 10 000. */
  maxQueued?: number;
  /**
   * Bytes of files (by size) queued or being read before new reads are refused with
   * `overloaded`; a read alone is always admitted. Default 2 GiB.
   */
  maxQueuedBytes?: number;
  /** Memory for results shared between callers, in bytes; 0 turns the result cache off. Default 64 MiB. */
  cacheBytes?: number;
  /**
   * A file changed less than this many milliseconds before it was read is not trusted by its
   * version alone: file-system timestamps are coarse, and two writes in one tick can leave the
   * same size and times. Such a read is not cached, and a later read checks its content hash.
   * 0 trusts every version at once (for file systems with fine timestamps). Default 1000.
   */
  settleMs?: number;
  /** Sessions whose reads are remembered (stubs, read ledger); least recently active forgotten first. Default 512. */
  maxSessions?: number;
  /** Reads remembered per session, least recent forgotten first. Default 1024. */
  maxSessionEntries?: number;
  /** Worker threads of the media pool (images, PDFs, notebooks), started on the first media read. Default 1. */
  mediaThreads?: number;
  /** Largest image, PDF or notebook read. Default 100 MiB. */
  maxMediaBytes?: number;
  /** Budget of a served image (or all of a request's images), in bytes of base64. Default 5 MiB. */
  maxImageBytes?: number;
  /** Longest side of a served image, in pixels. Default 2000. */
  maxImageSide?: number;
  /** Images with more pixels are refused before decoding (pixel bombs). Default 100 000 000. */
  maxImagePixels?: number;
  /** Most reads sent to a worker in one task; batching amortises the thread hop. Default 32. */
  batchSize?: number;
  /** Deadline of a read, queue time included, in milliseconds. Default 30 000. */
  timeoutMs?: number;
  /** Lines returned when a request gives no `limit`. Default 2000. */
  defaultLimit?: number;
  /** Cap on the UTF-8 bytes of rendered output; a request may ask for less. Default 256 KiB. */
  maxBytes?: number;
  /** Cap on the estimated tokens (characters / 4) of rendered output. Default 25 000. */
  maxTokens?: number;
  /** Longer lines are cut here with a marker. Default 2000 characters. */
  maxLineChars?: number;
  /** Files larger than this are refused with `file_too_large` instead of scanned. Default 4 GiB. */
  maxFileBytes?: number;
  /** Largest file served as base64 with `allowBinary`. Default 20 MiB. */
  maxBinaryBytes?: number;
  /** Longest path accepted, in characters. Default 4096. */
  maxPathLength?: number;
  /** Refuse files that usually hold secrets (`.env`, private keys, `.npmrc`, ...). Default true. */
  denySecrets?: boolean;
  /** Extra deny globs, matched case-insensitively against root-relative paths. Default none. */
  deny?: readonly string[];
}

/** Options after defaults and validation; frozen. */
export interface ResolvedOptions {
  readonly roots: readonly string[];
  readonly cores: number;
  readonly threads: number;
  readonly startThreads: 'now' | 'when-needed';
  readonly workerNice: number;
  readonly workerHeapMb: number | null;
  readonly maxQueued: number;
  readonly maxQueuedBytes: number;
  readonly cacheBytes: number;
  readonly settleMs: number;
  readonly maxSessions: number;
  readonly maxSessionEntries: number;
  readonly batchSize: number;
  readonly mediaThreads: number;
  readonly maxMediaBytes: number;
  readonly maxImageBytes: number;
  readonly maxImageSide: number;
  readonly maxImagePixels: number;
  readonly timeoutMs: number;
  readonly defaultLimit: number;
  readonly maxBytes: number;
  readonly maxTokens: number;
  readonly maxLineChars: number;
  readonly maxFileBytes: number;
  readonly maxBinaryBytes: number;
  readonly maxPathLength: number;
  readonly denySecrets: boolean;
  readonly deny: readonly string[];
}

export const DEFAULTS = Object.freeze({
  workerNice: 10,
  maxQueued: 10_000,
  maxQueuedBytes: 2 * 1024 ** 3,
  cacheBytes: 64 * 1024 ** 2,
  settleMs: 1000,
  maxSessions: 512,
  maxSessionEntries: 1024,
  batchSize: 32,
  mediaThreads: 1,
  maxMediaBytes: 100 * 1024 ** 2,
  maxImageBytes: 5 * 1024 ** 2,
  maxImageSide: 2000,
  maxImagePixels: 100_000_000,
  timeoutMs: 30_000,
  defaultLimit: 2000,
  maxBytes: 256 * 1024,
  maxTokens: 25_000,
  maxLineChars: 2000,
  maxFileBytes: 4 * 1024 ** 3,
  maxBinaryBytes: 20 * 1024 ** 2,
  maxPathLength: 4096,
  denySecrets: true,
});

/** Smallest output budgets: room for one cut line and its marker. */
export const MIN_MAX_BYTES = 512;
export const MIN_MAX_TOKENS = 128;

/**
 * Upper bounds that keep every option honourable: a timer's 32-bit range, and output and
 * base64 sizes well inside V8's largest string.
 */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;
export const MAX_OUTPUT_BYTES = 64 * 1024 ** 2;
export const MAX_BINARY_BYTES = 256 * 1024 ** 2;
export const MAX_LINE_CHARS = 1_000_000;
export const MAX_CACHE_BYTES = 16 * 1024 ** 3;
/** More cores than any machine a host runs on has. */
export const MAX_CORES = 4096;
/** More worker threads than any host needs: each holds about 10 MiB and takes about 50 ms of CPU to start. */
export const MAX_THREADS = 1024;
/** Session counts beyond this would hold more marks than any host needs. */
export const MAX_SESSION_COUNT = 1_000_000;
/** A worker needs this much heap just to start. */
export const MIN_WORKER_HEAP_MB = 16;

/**
 * The most threads the default gives, however many cores: the default measured on 16 cores (no
 * worse there than 16 threads; 8 to 16 threads read alike within that machine's noise). Past
 * the point where the host thread is the ceiling, a thread more reads nothing more, costs its
 * memory (about 10 MiB) and its start, and makes the tasks smaller: the scheduler shares the
 * reads waiting among the workers free to take them, and each task costs the host thread about
 * as much as several reads. Measured on 2 cores told of 64 (source tree, result cache off,
 * concurrency 256, two runs each): 8, 14, 28 and 56 threads took tasks of 27.2, 17.6, 9.4 and
 * 5.4 reads on average, at 9.5 to 9.9, 12.6 to 15.0, 15.5 to 16.0 and 19.8 to 20.2 µs of host
 * CPU a miss; the bench (`--cores 64 --threads 8,14,28,56 --concurrency 256`) gave tasks of
 * 26.8, 16.1, 8.4 and 3.6 reads. At that concurrency, 56 threads on 64 cores would likely set a
 * lower ceiling than 14. Give `threads` to go past it (large files, which cost the host little a
 * byte, may gain).
 */
export const MAX_DEFAULT_THREADS = 14;

/**
 * The text pool's threads when `threads` is not given: one a core on a small machine, and on 8
 * cores or more one core in eight left free for the host thread, which every read passes through
 * and which is the ceiling there (see README, "On 16 cores"), and for V8's helper threads, up to
 * `MAX_DEFAULT_THREADS`. On a 16-core machine at concurrency 256 (source tree, result cache off)
 * the rate holds from 8 threads on, the host thread being the ceiling: 8 to 14 threads read
 * 77 000 to 91 000 files a second and 16 threads 77 000 to 80 000 in three runs; 14 and 16
 * threads alternating, six pairs, 74 500 to 82 000 against 69 800 to 83 900 (14 ahead in four).
 * Two workers fewer hold about 20 MiB less (a swarm's peak RSS 254 MiB against 274) and leave the
 * host thread a core of its own. On 2 cores, two threads read the most (workers yield to the
 * host: `workerNice`).
 */
export function defaultThreads(cores: number): number {
  return cores < 8 ? cores : Math.min(MAX_DEFAULT_THREADS, cores - Math.ceil(cores / 8));
}

function positiveInteger(name: string, value: unknown, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    const floor = min === 1 ? 'a positive integer' : `an integer of at least ${min}`;
    const what = max === Number.MAX_SAFE_INTEGER ? floor : `${floor} and at most ${max}`;
    throw new TypeError(`options.${name} must be ${what} (received ${describe(value)})`);
  }
  return value;
}

function workerHeap(value: unknown): number | null {
  if (value === undefined) return null;
  const heap = positiveInteger('workerHeapMb', value, 0, MIN_WORKER_HEAP_MB);
  // A process-wide heap flag overrides a worker's resourceLimits (a Node limitation).
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  if (/--max-old-space-size\b/.test(flags)) {
    throw new TypeError('options.workerHeapMb cannot take effect: the process was started with --max-old-space-size');
  }
  return heap;
}

function niceIncrement(value: unknown): number {
  if (value === undefined) return DEFAULTS.workerNice;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 19) {
    throw new TypeError(`options.workerNice must be an integer from 0 to 19 (received ${describe(value)})`);
  }
  return value;
}

function threadStart(value: unknown): 'now' | 'when-needed' {
  if (value === undefined || value === 'now' || value === 'when-needed') return value ?? 'now';
  throw new TypeError(`options.startThreads must be 'now' or 'when-needed' (received ${describe(value)})`);
}

function stringList(name: string, value: unknown, what: string): string[] {
  if (!Array.isArray(value)) throw new TypeError(`options.${name} must be an array of ${what}`);
  const entries: unknown[] = value;
  const strings = entries.filter((entry): entry is string => typeof entry === 'string' && entry.length > 0);
  if (strings.length !== entries.length) {
    const bad = entries.find((entry) => typeof entry !== 'string' || entry.length === 0);
    throw new TypeError(`options.${name} must hold ${what} (received ${describe(bad)})`);
  }
  return strings;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** Applies defaults and validates once; bad options throw with the option's name. */
export function resolveOptions(options: EngineOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('options must be an object with a root, for example { root: process.cwd() }');
  }
  const { root, roots } = options;
  if (root !== undefined && roots !== undefined) {
    throw new TypeError('options.root and options.roots are exclusive: give one of them');
  }
  const list: unknown = roots ?? (root === undefined ? [] : [root]);
  if (!Array.isArray(list) || list.length === 0) {
    throw new TypeError('options.root must name the workspace directory (or give options.roots)');
  }
  const rootList = stringList('roots', list, 'non-empty path strings');
  if (rootList.some((entry) => entry.includes('\0'))) {
    throw new TypeError('options.roots must not contain a NUL byte');
  }
  const deny = stringList('deny', options.deny ?? [], 'non-empty glob strings');
  if (options.denySecrets !== undefined && typeof options.denySecrets !== 'boolean') {
    throw new TypeError(`options.denySecrets must be a boolean (received ${describe(options.denySecrets)})`);
  }
  const cores = positiveInteger('cores', options.cores, os.availableParallelism(), 1, MAX_CORES);
  return Object.freeze({
    roots: Object.freeze(rootList),
    cores,
    threads: positiveInteger('threads', options.threads, defaultThreads(cores), 1, MAX_THREADS),
    startThreads: threadStart(options.startThreads),
    workerNice: niceIncrement(options.workerNice),
    workerHeapMb: workerHeap(options.workerHeapMb),
    maxQueued: positiveInteger('maxQueued', options.maxQueued, DEFAULTS.maxQueued),
    maxQueuedBytes: positiveInteger('maxQueuedBytes', options.maxQueuedBytes, DEFAULTS.maxQueuedBytes),
    cacheBytes: positiveInteger('cacheBytes', options.cacheBytes, DEFAULTS.cacheBytes, 0, MAX_CACHE_BYTES),
    settleMs: positiveInteger('settleMs', options.settleMs, DEFAULTS.settleMs, 0, MAX_TIMEOUT_MS),
    maxSessions: positiveInteger('maxSessions', options.maxSessions, DEFAULTS.maxSessions, 1, MAX_SESSION_COUNT),
    maxSessionEntries: positiveInteger('maxSessionEntries', options.maxSessionEntries, DEFAULTS.maxSessionEntries, 1, MAX_SESSION_COUNT),
    batchSize: positiveInteger('batchSize', options.batchSize, DEFAULTS.batchSize),
    mediaThreads: positiveInteger('mediaThreads', options.mediaThreads, DEFAULTS.mediaThreads, 1, 64),
    maxMediaBytes: positiveInteger('maxMediaBytes', options.maxMediaBytes, DEFAULTS.maxMediaBytes, 1, MAX_BINARY_BYTES * 4),
    maxImageBytes: positiveInteger('maxImageBytes', options.maxImageBytes, DEFAULTS.maxImageBytes, 1024, MAX_BINARY_BYTES),
    maxImageSide: positiveInteger('maxImageSide', options.maxImageSide, DEFAULTS.maxImageSide, 64, 16_384),
    maxImagePixels: positiveInteger('maxImagePixels', options.maxImagePixels, DEFAULTS.maxImagePixels, 1, 2 ** 32),
    timeoutMs: positiveInteger('timeoutMs', options.timeoutMs, DEFAULTS.timeoutMs, 1, MAX_TIMEOUT_MS),
    defaultLimit: positiveInteger('defaultLimit', options.defaultLimit, DEFAULTS.defaultLimit),
    maxBytes: positiveInteger('maxBytes', options.maxBytes, DEFAULTS.maxBytes, MIN_MAX_BYTES, MAX_OUTPUT_BYTES),
    maxTokens: positiveInteger('maxTokens', options.maxTokens, DEFAULTS.maxTokens, MIN_MAX_TOKENS, MAX_OUTPUT_BYTES),
    maxLineChars: positiveInteger('maxLineChars', options.maxLineChars, DEFAULTS.maxLineChars, 1, MAX_LINE_CHARS),
    maxFileBytes: positiveInteger('maxFileBytes', options.maxFileBytes, DEFAULTS.maxFileBytes),
    maxBinaryBytes: positiveInteger('maxBinaryBytes', options.maxBinaryBytes, DEFAULTS.maxBinaryBytes, 1, MAX_BINARY_BYTES),
    maxPathLength: positiveInteger('maxPathLength', options.maxPathLength, DEFAULTS.maxPathLength),
    denySecrets: options.denySecrets ?? DEFAULTS.denySecrets,
    deny: Object.freeze(deny),
  });
}
