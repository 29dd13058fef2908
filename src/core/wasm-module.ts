/** The part of the WebAssembly API used to compile (the project's type libraries leave it out). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  compile: (bytes: Uint8Array) => Promise<object>;
};

/**
 * One of the project's own WebAssembly modules (base64 text, written by `npm run wasm`), compiled
 * once a thread: ahead of its first use by `warm()`, or synchronously by that use.
 */
export class WasmModule {
  readonly #base64: string;
  #compiled: object | null = null;

  constructor(base64: string) {
    this.#base64 = base64;
  }

  /** The compiled module, compiled here and now if `warm()` has not done it. */
  get(): object {
    return (this.#compiled ??= new WebAssembly.Module(Buffer.from(this.#base64, 'base64')));
  }

  /**
   * Compiles it off this thread: `WebAssembly.compile` runs on V8's own threads, where the
   * synchronous compile of the region renderer took about 4 ms of a fresh host's first read.
   * Called as a batch handler loads (`createBatchHandler`).
   */
  warm(): Promise<void> {
    if (this.#compiled !== null) return Promise.resolve();
    return WebAssembly.compile(Buffer.from(this.#base64, 'base64')).then((module) => {
      this.#compiled ??= module;
    });
  }
}
