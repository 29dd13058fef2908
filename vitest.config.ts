import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Engine suites start real worker pools; give the shared 2-core machine room.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
