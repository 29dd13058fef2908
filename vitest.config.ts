import { configDefaults, defineConfig } from 'vitest/config';

/** Measures the event loop of its own process: it runs alone, after every other suite. */
const LOAD_TEST = 'test/hostile/load.test.ts';

export default defineConfig({
  test: {
    // Engine suites start real worker pools; give the shared 2-core machine room.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'suites', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, LOAD_TEST] } },
      { extends: true, test: { name: 'load', include: [LOAD_TEST], sequence: { groupOrder: 1 } } },
    ],
  },
});
