#!/usr/bin/env node
import { readFileSync } from 'node:fs';

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as {
  version: string;
};

const HELP = `palisade-agent ${version}: the Palisade sensor agent

Usage: palisade-agent [--version] [--help]

This release carries only the agent's packaging. Device sign-in, configuration sync,
metrics and alert shipping are specified in docs/agent-protocol.md and arrive with the
devices-and-agent work.
`;

const args = process.argv.slice(2);
if (args.includes('--version')) {
  console.log(version);
} else {
  console.log(HELP);
  process.exitCode = args.length === 0 || args.includes('--help') ? 0 : 2;
}
