import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The JSON report is what .ci/run counts; the default reporter is what people read.
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    projects: [
      { test: { name: 'marbles', include: ['marbles/**/*.spec.ts', 'examples/**/*.spec.ts'], environment: 'node' } },
      // In process: no server, no socket, no child process, no Redis.
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'integration',
          include: ['test/http/**/*.test.ts', 'test/backends/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 20_000,
          globalSetup: ['test/support/globalSetup.ts'],
        },
      },
    ],
  },
});
