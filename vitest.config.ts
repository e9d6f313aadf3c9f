import { defineConfig } from 'vitest/config';

// Unit and server tests. The server suite runs twice: on embedded PGlite and on a
// scratch database of the PostgreSQL server at 127.0.0.1:5432 (TEST_DB selects).
const resolve = { conditions: ['palisade-source'] };

export default defineConfig({
  resolve,
  ssr: { resolve: { conditions: ['palisade-source'], externalConditions: ['palisade-source'] } },
  test: {
    projects: [
      {
        resolve,
        test: {
          name: 'packages',
          include: ['packages/*/src/**/*.test.ts', 'apps/agent/src/**/*.test.ts'],
        },
      },
      {
        resolve,
        test: {
          name: 'server-pglite',
          include: ['apps/server/src/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve,
        test: {
          name: 'server-postgres',
          include: ['apps/server/src/**/*.test.ts'],
          env: { TEST_DB: 'postgres' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve,
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
    ],
  },
});
