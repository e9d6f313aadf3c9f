/** One signature of the sample data, as its rule names it and its events show it. */
export interface SampleSignature {
  protocol: string;
  app: string | null;
  port: number | null;
  inbound: boolean;
  sid: number;
  rev: number;
  msg: string;
  classtype: string;
  severity: number;
  category: string;
}
export declare const SAMPLE_SIGNATURES: readonly SampleSignature[];
/** An eve.json event as Suricata writes it (one JSON object a line). */
export type SampleEveEvent = Record<string, unknown> & { event_type: string; timestamp: string };
export interface SampleEveOptions {
  count: number;
  seed?: number;
  /** The share (0…1) of alert events; the rest are flow, protocol and stats events. */
  alerts?: number;
  /** Milliseconds since the epoch of the first event's second. */
  start?: number;
}
export declare function sampleEveEvents(options: SampleEveOptions): SampleEveEvent[];
export declare function sampleAlerts(options: Omit<SampleEveOptions, 'alerts'>): SampleEveEvent[];
export declare function sampleRuleFiles(): { name: string; text: string }[];
/** A small seeded generator (mulberry32): the same seed gives the same numbers everywhere. */
export declare function generator(seed: number): {
  /** In [0, 1). */
  next(): number;
  /** An integer in [low, high]. */
  int(low: number, high: number): number;
  pick<T>(list: readonly T[]): T;
  /** Early entries far more often than late ones. */
  skewed<T>(list: readonly T[]): T;
};
