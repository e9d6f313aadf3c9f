// A fleet process's bundles, shared by its simulated devices. Thousands of devices on one policy
// are served the very same bytes after a fleet-wide change; each would uncompress, parse and
// check the same megabytes, an artefact of simulating them in one process (a real sensor does it
// once, for itself, on its own CPU). Here each answer is still requested and read by its device,
// and its bytes are identified by their SHA-256: bytes seen before give the bundle parsed from
// them then, so the process parses each distinct answer once.

import { createHash } from 'node:crypto';
import { AgentBundle } from '@palisade/contract';
import type { HttpAnswer } from './http.js';

/** Distinct answers kept (most recently served last): a few policies' worth of versions. */
const KEPT = 16;

export class SharedBundles {
  /** By encoding and digest; a parse under way is shared by the devices that read it meanwhile. */
  private readonly byDigest = new Map<string, Promise<AgentBundle>>();
  /** Answers parsed (the others were recognised by their digest): the tests count them. */
  parsed = 0;

  /** The bundle an answer carries, parsed once per distinct body and encoding. */
  async read(answer: HttpAnswer): Promise<AgentBundle> {
    const raw = await answer.bytes();
    const digest = createHash('sha256').update(raw).digest('base64');
    const key = `${answer.header('content-encoding') ?? 'identity'} ${digest}`;
    const known = this.byDigest.get(key);
    if (known) {
      this.byDigest.delete(key);
      this.byDigest.set(key, known);
      return known;
    }
    this.parsed += 1;
    const parsing = answer
      .decode(raw)
      .then((text) => Object.freeze(AgentBundle.parse(JSON.parse(text))));
    if (this.byDigest.size >= KEPT) {
      const oldest = this.byDigest.keys().next().value;
      if (oldest !== undefined) this.byDigest.delete(oldest);
    }
    this.byDigest.set(key, parsing);
    // A body that is no bundle is not kept: each device that gets it hears why.
    parsing.catch(() => {
      if (this.byDigest.get(key) === parsing) this.byDigest.delete(key);
    });
    return parsing;
  }
}
