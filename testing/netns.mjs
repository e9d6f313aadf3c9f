// Network namespaces for the tests that send real traffic through real nft: the firewall
// package's traffic and lock-out tests and the agent's confirm test. Shared so that every suite
// finds ip and nft, probes the machine, names, joins and removes its namespaces the same way.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const NFT = existsSync('/usr/sbin/nft') ? '/usr/sbin/nft' : 'nft';
export const IP = existsSync('/usr/sbin/ip')
  ? '/usr/sbin/ip'
  : existsSync('/sbin/ip')
    ? '/sbin/ip'
    : 'ip';

export function run(command, args, timeout = 20_000) {
  return execFileSync(command, args, {
    encoding: 'utf8',
    timeout,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function inNs(ns, command, args, timeout = 20_000) {
  return run(IP, ['netns', 'exec', ns, command, ...args], timeout);
}

export function netnsUnavailable() {
  const probe = `palisade-probe-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const added = spawnSync(IP, ['netns', 'add', probe], { encoding: 'utf8', timeout: 10_000 });
  if (added.error) return `ip cannot run: ${added.error.message}`;
  if (added.status !== 0) return `ip netns add fails: ${added.stderr.trim()}`;
  spawnSync(IP, ['netns', 'del', probe], { timeout: 10_000 });
  return null;
}

export function deleteNamespaces(names) {
  for (const name of names) spawnSync(IP, ['netns', 'del', name], { timeout: 10_000 });
}

export function addNamespace(name) {
  deleteNamespaces([name]);
  run(IP, ['netns', 'add', name]);
  run(IP, ['-n', name, 'link', 'set', 'lo', 'up']);
}

export function joinNamespaces({
  a,
  b,
  addressA,
  addressB,
  prefix = 24,
  nameA = 'eth0',
  nameB = 'eth0',
}) {
  if (a === null) {
    spawnSync(IP, ['link', 'del', nameA], { timeout: 10_000 });
    run(IP, ['link', 'add', nameA, 'type', 'veth', 'peer', 'name', nameB, 'netns', b]);
    run(IP, ['addr', 'add', `${addressA}/${prefix}`, 'dev', nameA]);
    run(IP, ['link', 'set', nameA, 'up']);
  } else {
    run(IP, ['-n', a, 'link', 'add', nameA, 'type', 'veth', 'peer', 'name', nameB, 'netns', b]);
    run(IP, ['-n', a, 'addr', 'add', `${addressA}/${prefix}`, 'dev', nameA]);
    run(IP, ['-n', a, 'link', 'set', nameA, 'up']);
  }
  run(IP, ['-n', b, 'addr', 'add', `${addressB}/${prefix}`, 'dev', nameB]);
  run(IP, ['-n', b, 'link', 'set', nameB, 'up']);
}
