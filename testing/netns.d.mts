/** The nft program (/usr/sbin/nft where it is, else found on PATH). */
export declare const NFT: string;
/** The ip program (iproute2). */
export declare const IP: string;
/** Runs a program; its standard output, or throws with its error output. */
export declare function run(command: string, args: readonly string[], timeout?: number): string;
/** Runs a program in a network namespace (`ip netns exec`). */
export declare function inNs(
  ns: string,
  command: string,
  args: readonly string[],
  timeout?: number,
): string;
/**
 * Why this machine cannot make namespaces (no root, no ip), or null. A missing nft is not a
 * reason: scripts/ensure-system-deps.sh installs it, and a test that needs it fails without it.
 */
export declare function netnsUnavailable(): string | null;
/** Removes namespaces (those that do not exist are skipped). */
export declare function deleteNamespaces(names: readonly string[]): void;
/** A new namespace with loopback up (an old one of the same name is removed first). */
export declare function addNamespace(name: string): void;
/**
 * Joins namespace `a` (null: the test's own) to namespace `b` by a veth pair, each end with its
 * address and up. In the test's own namespace `nameA` must be unique on the machine.
 */
export declare function joinNamespaces(options: {
  a: string | null;
  b: string;
  addressA: string;
  addressB: string;
  prefix?: number;
  nameA?: string;
  nameB?: string;
}): void;
