import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

// Tests of the agent as it ships (apps/agent/dist-release, made by `npm run build`): the
// *.release.test.ts files, and the agent's integration and enrolment tests run again against
// each built flavor instead of the source (PALISADE_AGENT_COMMAND, see
// apps/agent/src/testing/processes.ts).
// `npm test` runs this after the build step: npx vitest run -c vitest.release.config.ts
const resolve = { conditions: ['palisade-source'] };
const release = path.resolve(import.meta.dirname, 'apps/agent/dist-release');
const integration = ['apps/agent/src/integration.test.ts', 'apps/agent/src/enrol.test.ts'];
const timeouts = { testTimeout: 180_000, hookTimeout: 180_000 };
// The servers these start begin from one first start's database, made once for all three projects.
const globalSetup = ['apps/agent/src/testing/console-image.setup.ts'];

export default defineConfig({
  resolve,
  ssr: { resolve: { conditions: ['palisade-source'], externalConditions: ['palisade-source'] } },
  test: {
    // Each file starts servers and agents; on a small machine they are best run one at a time.
    fileParallelism: false,
    projects: [
      {
        resolve,
        test: {
          name: 'release',
          include: ['**/*.release.test.ts'],
          exclude: configDefaults.exclude,
          globalSetup,
          ...timeouts,
        },
      },
      {
        resolve,
        test: {
          name: 'agent-executable',
          include: integration,
          env: { PALISADE_AGENT_COMMAND: path.join(release, 'palisade-agent-linux-x64') },
          globalSetup,
          ...timeouts,
        },
      },
      {
        resolve,
        test: {
          name: 'agent-node-module',
          include: integration,
          env: {
            PALISADE_AGENT_COMMAND: `${process.execPath} ${path.join(release, 'palisade-agent.mjs')}`,
          },
          globalSetup,
          ...timeouts,
        },
      },
    ],
  },
});
