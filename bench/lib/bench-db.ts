// A bench's PostgreSQL database: a new scratch one (named with the scratch prefix), or one a
// previous run kept, named by the bench's reuse variable. Shared by the benches that fill
// a million alerts (bench/alert-list.bench.ts, bench/backtest.bench.ts).

import pg from 'pg';
import { scratchDbName } from '../../testing/scratch-db.mjs';

export const ADMIN_URL =
  process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase {
  name: string;
  url: string;
  /** Whether it was made now (so it needs filling) rather than reused. */
  created: boolean;
  /** Drops it, unless it was reused or `keep` was asked; says which. */
  release(): Promise<void>;
}

export async function benchDatabase(options: {
  prefix: string;
  /** The name of a database a previous run kept, to use instead of a new one. */
  reuse: string | undefined;
  keep: boolean;
}): Promise<BenchDatabase> {
  const name = options.reuse ?? scratchDbName(options.prefix);
  const keep = options.reuse !== undefined || options.keep;
  if (options.reuse === undefined) {
    const server = new pg.Client({ connectionString: ADMIN_URL });
    await server.connect();
    await server.query(`CREATE DATABASE ${name}`);
    await server.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    created: options.reuse === undefined,
    async release() {
      if (keep) {
        console.log(`kept the database ${name}: drop it when done`);
        return;
      }
      const cleanup = new pg.Client({ connectionString: ADMIN_URL });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
