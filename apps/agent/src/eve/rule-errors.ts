// Why Suricata failed to load rules: its stats count failed rules but do not say why; its log
// does, one `error parsing signature "…" from file … at line N` line per rule. When the stats
// report failures, the agent reads the end of suricata.log (a bounded read: the last 256 KiB)
// and sends the last few such reasons with its health.

import { open } from 'node:fs/promises';

export const DEFAULT_SURICATA_LOG = '/var/log/suricata/suricata.log';
/** The end of the log read: a reload's errors are written together, at its end. */
const TAIL_BYTES = 256 * 1024;
export const MAX_RULE_ERRORS = 5;
const MAX_LENGTH = 1000;
const REASON = /error parsing signature/i;

/**
 * The reasons in a piece of suricata.log, from `error parsing signature` to the end of the line
 * (the time and source location before it dropped): the last MAX_RULE_ERRORS distinct ones, in
 * the order logged. Pure.
 */
export function ruleErrorsIn(text: string): string[] {
  const reasons: string[] = [];
  for (const line of text.split('\n')) {
    const at = line.search(REASON);
    if (at < 0) continue;
    const reason = line.slice(at).trim().slice(0, MAX_LENGTH);
    const seen = reasons.indexOf(reason);
    if (seen >= 0) reasons.splice(seen, 1);
    reasons.push(reason);
  }
  return reasons.slice(-MAX_RULE_ERRORS);
}

/** The reasons at the end of `file`; null when it cannot be read. */
export async function readRuleErrors(file: string): Promise<string[] | null> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return null;
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    let text = buffer.subarray(0, bytesRead).toString('utf8');
    // A read that starts mid-file starts mid-line: that line is dropped.
    if (start > 0) text = text.slice(text.indexOf('\n') + 1);
    return ruleErrorsIn(text);
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}
