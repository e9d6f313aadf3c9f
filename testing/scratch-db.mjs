// Names of the scratch PostgreSQL databases the tests and benchmarks create and drop.
// PALISADE_SCRATCH_DB_PREFIX sets their common prefix, so that runs sharing one server (several
// checkouts, CI jobs) can be told apart and cleaned up by name.

const DEFAULT_PREFIX = 'palisade_test_';

export function scratchDbPrefix() {
  const prefix = process.env['PALISADE_SCRATCH_DB_PREFIX'] ?? DEFAULT_PREFIX;
  // Interpolated into CREATE/DROP DATABASE: a plain lower-case identifier only.
  if (!/^[a-z_][a-z0-9_]{0,39}$/.test(prefix)) {
    throw new Error(
      `PALISADE_SCRATCH_DB_PREFIX=${prefix}: must be lower-case letters, digits and _ (at most 40)`,
    );
  }
  return prefix;
}

/** `<prefix><purpose>_<pid>_<random>`: unique per process and call. */
export function scratchDbName(purpose = '') {
  const random = Math.random().toString(16).slice(2, 10);
  return `${scratchDbPrefix()}${purpose ? `${purpose}_` : ''}${process.pid}_${random}`;
}
