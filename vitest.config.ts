import { configDefaults, defineConfig } from 'vitest/config';

// Unit and server tests. The server suite runs twice: on embedded PGlite and on a
// scratch database of the PostgreSQL server at 127.0.0.1:5432 (TEST_DB selects).
// Tests of the built agent (*.release.test.ts) need `npm run build` first: vitest.release.config.ts.
const resolve = { conditions: ['palisade-source'] };
const exclude = [...configDefaults.exclude, '**/*.release.test.ts'];
// The agent's tests that start the server as a process too (startConsole, ServerProcess).
const agentAndServer = ['apps/agent/src/**/*integration.test.ts', 'apps/agent/src/enrol.test.ts'];
// The embedded database's own plumbing: these open PGlite themselves, whatever TEST_DB says, so
// the PostgreSQL run would only repeat them (about 37 s of a worker's time).
const embeddedOnly = [
  'apps/server/src/db/pglite-start.test.ts',
  'apps/server/src/db/embedded-*.test.ts',
  'apps/server/src/plugins/embedded-maintenance.test.ts',
];

// The server suite's files share their worker's modules (`isolate: false`): each imported the
// whole server anew, and the PGlite run took twice as long (see "Tests" in docs/ARCHITECTURE.md).
// A server test file leaves no module state another reads: no vi.mock, vi.stubEnv or fake timers,
// caches keyed by content only, and every server or database it opens closed.
const serverIsolate = false;

export default defineConfig({
  resolve,
  ssr: { resolve: { conditions: ['palisade-source'], externalConditions: ['palisade-source'] } },
  test: {
    // Vitest's default on a 2-core machine is one worker, which left a core idle while a test
    // waited on PostgreSQL, a process or a timer (see "Tests" in docs/ARCHITECTURE.md).
    maxWorkers: 2,
    projects: [
      {
        resolve,
        test: {
          name: 'packages',
          include: ['packages/*/src/**/*.test.ts', 'apps/agent/src/**/*.test.ts'],
          exclude: [...exclude, ...agentAndServer],
          // The agent's tests start processes; on a busy machine 5 s timed out.
          testTimeout: 30_000,
        },
      },
      {
        resolve,
        test: {
          name: 'agent-and-server',
          include: agentAndServer,
          exclude,
          // The servers they start begin from one first start's database (see there).
          globalSetup: ['apps/agent/src/testing/console-image.setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        resolve,
        test: {
          name: 'server-pglite',
          include: ['apps/server/src/**/*.test.ts'],
          exclude,
          env: { TEST_DB: 'pglite' },
          globalSetup: ['apps/server/src/test/pglite-image.setup.ts'],
          isolate: serverIsolate,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve,
        test: {
          name: 'server-postgres',
          include: ['apps/server/src/**/*.test.ts'],
          exclude: [...exclude, ...embeddedOnly],
          env: { TEST_DB: 'postgres' },
          globalSetup: ['apps/server/src/test/postgres-template.setup.ts'],
          isolate: serverIsolate,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve,
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          exclude,
          environment: 'node',
          // A component rendered in jsdom takes seconds when the machine is busy; 5 s timed out.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
