import { LRUCache } from 'lru-cache';
import type { Queryable } from '../../db/client.js';
import { deviceConfigDigest, renderDeviceConfig } from '../devices/device-config.js';
import { renderPolicyById } from '../policies/policies.service.js';
import { renderedSha256 } from '../policies/policy-refresh.js';
import { encodeBundle, type BundleEncoding, type EncodedBundle } from './bundle-encoding.js';
import { policyFiles, renderedContent } from '../versions/versions.service.js';

/** Bytes of rendered bundle parts one replica keeps; the least recently served go first. */
export const BUNDLE_CACHE_BYTES = 96 * 1024 * 1024;
/** Bytes of encoded (compressed) bundle answers one replica keeps, beside the rendered parts. */
export const ENCODED_BUNDLE_CACHE_BYTES = 32 * 1024 * 1024;

/** What decides a device's bundle, read with its versions in one row (`agentRepository.remotes`). */
export interface BundleSource {
  config_version: number;
  policy_version: number;
  policy_id: number | null;
  /** devices.config_sha256: the digest of the rendered variables, firewall and routes. */
  config_sha256: string;
  /** policies.rendered_sha256 ('' without a policy). */
  policy_sha256: string;
}

/** A part of the bundle's JSON, already serialised: `"rules":…,"thresholds":…`. */
interface Part {
  digest: string;
  json: string;
}

const NO_POLICY: Part = { digest: '', json: '"rules":"","thresholds":""' };

/**
 * Bundles rendered once per distinct content, not once per device. The cache is keyed by the
 * content digests the writers store beside the versions (a policy's `rendered_sha256`, a
 * device's `config_sha256`), read in the same row as the versions the answer names; a render
 * is kept only when its own digest equals that key. So what is served under a version is that
 * version's content whichever replica changed it and whenever, and a fleet running one policy
 * and one profile costs one render of each however many devices pull.
 */
export class BundleCache {
  private readonly parts = new LRUCache<string, Part>({
    maxSize: BUNDLE_CACHE_BYTES,
    sizeCalculation: (part) => Math.max(1, part.json.length * 2),
  });
  /** Renders under way, so a fleet pulling at once waits for one render, not one each. */
  private readonly pending = new Map<string, Promise<Part | null>>();
  /**
   * Whole answers as sent, compressed once per encoding and content: the versions and the two
   * digests the answer is made of name its bytes, so 5,000 devices pulling one content cost one
   * compression, not 5,000.
   */
  private readonly bodies = new LRUCache<string, EncodedBundle>({
    maxSize: ENCODED_BUNDLE_CACHE_BYTES,
    sizeCalculation: (encoded) => Math.max(1, encoded.body.length),
  });
  private readonly encoding = new Map<string, Promise<EncodedBundle | null>>();
  /** Renders done (misses): the tests count them. */
  renders = 0;

  constructor(private readonly db: Queryable) {}

  /**
   * The bundle's JSON for the device, or null when what the database renders now is no longer
   * what `source` names (a change landed meanwhile): the caller reads the versions again.
   */
  async json(deviceId: number, source: BundleSource): Promise<string | null> {
    const [policy, config] = await Promise.all([
      this.policy(source),
      this.part(`config:${source.config_sha256}`, () =>
        this.stored('config', source.config_sha256, () => this.renderConfig(deviceId)),
      ),
    ]);
    if (!policy || !config) return null;
    return (
      `{"config_version":${source.config_version},"policy_version":${source.policy_version},` +
      `${policy.json},${config.json}}`
    );
  }

  /**
   * The device's bundle answer in `encoding`, or null as `json` answers null. Answers of one
   * content are encoded once (concurrent pulls share the work) and served from memory after.
   */
  async encoded(
    deviceId: number,
    source: BundleSource,
    encoding: BundleEncoding,
  ): Promise<EncodedBundle | null> {
    const key =
      `${encoding}:${source.config_version}:${source.policy_version}:` +
      `${source.policy_id === null ? '' : source.policy_sha256}:${source.config_sha256}`;
    const cached = this.bodies.get(key);
    if (cached) return cached;
    let pending = this.encoding.get(key);
    if (!pending) {
      pending = (async () => {
        const json = await this.json(deviceId, source);
        if (json === null) return null;
        const encoded = await encodeBundle(json, encoding);
        this.bodies.set(key, encoded);
        return encoded;
      })().finally(() => this.encoding.delete(key));
      this.encoding.set(key, pending);
    }
    return pending;
  }

  /**
   * The bundle rendered now, bypassing the cache: for a device whose stored digests never match
   * a render (none stored yet), so that it still gets its files.
   */
  async uncached(deviceId: number, source: BundleSource): Promise<string> {
    const [policy, config] = await Promise.all([
      source.policy_id === null ? NO_POLICY : this.renderPolicy(source.policy_id),
      this.renderConfig(deviceId),
    ]);
    return (
      `{"config_version":${source.config_version},"policy_version":${source.policy_version},` +
      `${policy.json},${config.json}}`
    );
  }

  private async renderConfig(deviceId: number): Promise<Part> {
    const { variables, nftables, routes } = await renderDeviceConfig(this.db, deviceId);
    const config = { variables, nftables, routes };
    return { digest: deviceConfigDigest(config), json: JSON.stringify(config).slice(1, -1) };
  }

  private async renderPolicy(policyId: number): Promise<Part> {
    const output = await renderPolicyById(this.db, policyId);
    const json = JSON.stringify({ rules: output.rules, thresholds: output.thresholds });
    return { digest: renderedSha256(output), json: json.slice(1, -1) };
  }

  private policy(source: BundleSource): Promise<Part | null> {
    const policyId = source.policy_id;
    if (policyId === null) return Promise.resolve(NO_POLICY);
    return this.part(`policy:${source.policy_sha256}`, () =>
      this.stored('policy', source.policy_sha256, () => this.renderPolicy(policyId)),
    );
  }

  /**
   * The part as the version store keeps it under `digest`, else rendered from what is saved
   * now. A device of an organization that stages its changes is served versions deployed to
   * it, whose content may be older than what is saved: only the store still has it. (Device
   * configurations are stored when they are deployed, policies with each version.)
   */
  private async stored(
    kind: 'config' | 'policy',
    digest: string,
    render: () => Promise<Part>,
  ): Promise<Part> {
    const content = digest === '' ? null : await renderedContent(this.db, digest);
    if (content === null) return render();
    if (kind === 'config') return { digest, json: content.slice(1, -1) };
    return { digest, json: JSON.stringify(policyFiles(content)).slice(1, -1) };
  }

  /** The cached part for `key` (`kind:digest`), rendering it when missing. */
  private async part(key: string, render: () => Promise<Part>): Promise<Part | null> {
    const digest = key.slice(key.indexOf(':') + 1);
    const cached = this.parts.get(key);
    if (cached) return cached;
    let rendering = this.pending.get(key);
    if (!rendering) {
      rendering = (async () => {
        this.renders += 1;
        const part = await render();
        // Rendered after the digest was read: keep it only if it is that content.
        if (part.digest !== digest) return null;
        this.parts.set(key, part);
        return part;
      })().finally(() => this.pending.delete(key));
      this.pending.set(key, rendering);
    }
    return rendering;
  }
}
