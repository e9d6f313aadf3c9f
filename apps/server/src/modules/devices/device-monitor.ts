import { MONITOR_MAX_POINTS, type DeviceMonitor } from '@palisade/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.js';
import { devicesRepository as repo, type MetricRow } from './devices.repository.js';

/** Bucket widths (seconds) a window is averaged into: round ones, so charts line up. */
const BUCKET_SECONDS = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400,
];
const DAY_SECONDS = 86_400;

/**
 * The narrowest bucket width that cuts a window of `windowMs` into at most `points`
 * epoch-aligned buckets: a window n·b seconds long touches at most n + 1 of them. Buckets are
 * aligned to the epoch, not to the window's start, so a refresh moves only the first and last.
 */
export function bucketSeconds(windowMs: number, points: number): number {
  const least = Math.max(windowMs, 0) / 1000 / Math.max(points - 1, 1);
  return BUCKET_SECONDS.find((s) => s >= least) ?? Math.ceil(least / DAY_SECONDS) * DAY_SECONDS;
}

const oldestFirst = (rows: MetricRow[]) =>
  rows.reverse().map((r) => ({ ...r, time: r.time.toISOString() }));

/**
 * A device's metrics from `since` to now in at most `limit` (capped at MONITOR_MAX_POINTS)
 * points: the raw samples when there are no more than that, else bucket averages. A bucket is
 * then wider than the window's mean sample interval, so no bucket is narrower than a sample.
 */
export async function readMonitor(
  db: Queryable,
  query: { deviceId: number; since: Date; limit: number; now?: Date },
): Promise<z.infer<typeof DeviceMonitor>> {
  const { deviceId, since } = query;
  const points = Math.min(query.limit, MONITOR_MAX_POINTS);
  if ((await repo.metricCount(db, deviceId, since, points + 1)) <= points) {
    const rows = await repo.metrics(db, deviceId, since, points);
    return { device_id: deviceId, bucket_seconds: null, data: oldestFirst(rows) };
  }
  const now = query.now ?? new Date();
  const seconds = bucketSeconds(now.getTime() - since.getTime(), points);
  const rows = await repo.metricBuckets(db, { deviceId, since, seconds, limit: points });
  return { device_id: deviceId, bucket_seconds: seconds, data: oldestFirst(rows) };
}
