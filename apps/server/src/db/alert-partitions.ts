import type { Database, Queryable } from './client.js';

const DAY_MS = 86_400_000;
/** Partitions of one UTC day each: device_alerts_pYYYYMMDD (see the partitioning migration). */
const DAY_PARTITION = /^device_alerts_p(\d{4})(\d{2})(\d{2})$/;
/** Days created ahead of today, so that a day's partition exists before its first alert. */
const DAYS_AHEAD = 3;
/** Waits no longer than this for a partition change's lock; else the run fails, to be retried. */
const LOCK_TIMEOUT = '5s';

/**
 * The tables partitioned by day: the alerts, and their rollup whose rows of a day go with that
 * day's alerts (created, moved out of the default and dropped in the same transaction).
 */
const DAY_TABLES = [
  { table: 'device_alerts', column: 'time' },
  { table: 'alert_rollup', column: 'hour' },
] as const;

const dayStart = (time: Date) => new Date(Math.floor(time.getTime() / DAY_MS) * DAY_MS);
const daySuffix = (day: Date) => day.toISOString().slice(0, 10).replaceAll('-', '');
const partitionName = (day: Date) => `device_alerts_p${daySuffix(day)}`;

function dayOf(name: string): Date | null {
  const match = DAY_PARTITION.exec(name);
  return match ? new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00Z`) : null;
}

async function dayPartitions(db: Queryable): Promise<{ name: string; day: Date }[]> {
  const rows = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'device_alerts'::regclass`,
  );
  return rows.flatMap(({ name }) => {
    const day = dayOf(name);
    return day ? [{ name, day }] : [];
  });
}

/**
 * The day partitions of device_alerts and alert_rollup: creates the missing ones from yesterday to DAYS_AHEAD
 * days ahead, and drops those whose whole day is older than `cutoff`. A day is dropped whole
 * (no row is read), so an alert is kept up to a day past its retention. `lock` runs first in
 * each change's transaction and says whether this replica may go on. Returns the number of
 * partitions created and dropped.
 */
export async function maintainAlertPartitions(
  db: Database,
  options: { now: Date; cutoff: Date; lock: (tx: Queryable) => Promise<boolean> },
): Promise<{ created: number; dropped: number }> {
  const existing = await dayPartitions(db);
  const have = new Set(existing.map((p) => p.name));
  const today = dayStart(options.now);
  let created = 0;
  for (let offset = -1; offset <= DAYS_AHEAD; offset += 1) {
    const day = new Date(today.getTime() + offset * DAY_MS);
    if (day.getTime() + DAY_MS <= options.cutoff.getTime() || have.has(partitionName(day)))
      continue;
    if (await inLockedTransaction(db, options.lock, (tx) => createDay(tx, day))) created += 1;
  }
  let dropped = 0;
  for (const { day } of existing) {
    if (day.getTime() + DAY_MS > options.cutoff.getTime()) continue;
    const drop = async (tx: Queryable) => {
      await lockDayTables(tx);
      // The rollup's day may be missing: a partition attached by hand, without its rollup.
      for (const { table } of DAY_TABLES)
        await tx.query(`DROP TABLE IF EXISTS ${table}_p${daySuffix(day)}`);
      // Each device's count of that day goes with it (the alerts module's alert_device_days).
      await tx.query('DELETE FROM alert_device_days WHERE day = $1::date', [
        day.toISOString().slice(0, 10),
      ]);
      return true;
    };
    if (await inLockedTransaction(db, options.lock, drop)) dropped += 1;
  }
  return { created, dropped };
}

async function inLockedTransaction(
  db: Database,
  lock: (tx: Queryable) => Promise<boolean>,
  change: (tx: Queryable) => Promise<boolean>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await lock(tx))) return false;
    await tx.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
    return change(tx);
  });
}

/**
 * Takes the tables a partition change touches before it touches any, in the order alert ingest
 * takes them: a device's row (its batch claim), then device_alerts, then alert_rollup. Attaching
 * or dropping a partition adds or drops its foreign keys' triggers on devices, a lock that waits
 * for every write of a device row. Taken one by one as the change went, a batch that had claimed
 * its device and was about to COPY deadlocked with it, and rows a batch put into the default
 * partition meanwhile made the attach fail. Held, they keep device writes and ingest waiting
 * for the few milliseconds the change takes.
 */
async function lockDayTables(tx: Queryable): Promise<void> {
  await tx.query(
    `LOCK TABLE devices, ${DAY_TABLES.map((t) => t.table).join(', ')} IN SHARE ROW EXCLUSIVE MODE`,
  );
}

/**
 * Creates one day's partition of each day table. Rows of that day already in the default
 * partition (a sensor whose clock ran ahead) move into it first: the default may not keep rows
 * of a partition's range. The new table is filled and given its range as a CHECK before it is
 * attached, so the attach need not read it; it still reads the default partition (kept small)
 * for rows of the day.
 */
async function createDay(tx: Queryable, day: Date): Promise<boolean> {
  await lockDayTables(tx);
  const from = day.toISOString();
  const to = new Date(day.getTime() + DAY_MS).toISOString();
  for (const { table, column } of DAY_TABLES) {
    const name = `${table}_p${daySuffix(day)}`;
    const [present] = await tx.query<{ oid: string | null }>(
      'SELECT to_regclass($1)::text AS oid',
      [name],
    );
    if (present?.oid) continue;
    await tx.query(
      `CREATE TABLE ${name} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
         CONSTRAINT ${name}_day CHECK (${column} >= '${from}' AND ${column} < '${to}'))`,
    );
    await tx.query(
      `WITH moved AS (DELETE FROM ${table}_default WHERE ${column} >= $1 AND ${column} < $2 RETURNING *)
       INSERT INTO ${name} SELECT * FROM moved`,
      [from, to],
    );
    await tx.query(
      `ALTER TABLE ${table} ATTACH PARTITION ${name} FOR VALUES FROM ('${from}') TO ('${to}')`,
    );
    await tx.query(`ALTER TABLE ${name} DROP CONSTRAINT ${name}_day`);
  }
  return true;
}
