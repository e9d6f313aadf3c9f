import type { Role } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_TABLE, UNLISTED_ROUTES, type Expectation } from './route-table.js';
import {
  buildWorld,
  CALLERS,
  concretePath,
  kindOf,
  operations,
  type Caller,
  type Operation,
  type World,
} from './route-world.js';

const RANK: Record<Role, number> = { Viewer: 0, Operator: 1, Administrator: 2 };
/** Text only the first organization's objects carry: the second must never read it. */
const FIRST_ORGANIZATION_MARKERS = ['route table 9000001', 'route table 9000002', 'world sensor'];

type Outcome = 'allowed' | 401 | 403 | 404;

/** What the table says `caller` gets from the operation. */
function expected(entry: Expectation, caller: Caller, hasId: boolean): Outcome {
  if (entry.access === 'public') return 'allowed';
  if (caller === 'none' || caller === 'bad' || caller === 'expired') return 401;
  if (entry.access === 'agent') return caller === 'agent' ? 'allowed' : 401;
  if (caller === 'agent') return 401;
  const role: Role = caller === 'otherAdministrator' ? 'Administrator' : caller;
  if (RANK[role] < RANK[entry.access]) return 403;
  if (caller === 'otherAdministrator' && hasId) return 404;
  return 'allowed';
}

const CODE_OF: Record<401 | 403 | 404, string> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
};

describe('who may call each route (generated from /openapi.json)', () => {
  let world: World;
  let listed: Operation[];

  beforeAll(async () => {
    world = await buildWorld();
    listed = await operations(world.app);
  }, 120_000);
  afterAll(() => world.server.close());

  it('the route table names every operation, and only those', () => {
    const keys = [...listed.map((op) => op.key), ...UNLISTED_ROUTES];
    const missing = keys.filter((key) => !(key in ROUTE_TABLE));
    const stale = Object.keys(ROUTE_TABLE).filter((key) => !keys.includes(key));
    expect(missing, 'operations without an entry in route-table.ts').toEqual([]);
    expect(stale, 'entries of route-table.ts no route has').toEqual([]);
  });

  it('answers every kind of caller as the table says', async () => {
    const unlisted: Operation[] = UNLISTED_ROUTES.map((key) => {
      const [method = 'GET', path = ''] = key.split(' ');
      return { key, method, path, query: [], pathParams: [] };
    });
    const failures: string[] = [];
    let cells = 0;
    let requests = 0;
    for (const op of [...listed, ...unlisted]) {
      const entry = ROUTE_TABLE[op.key];
      if (!entry) continue; // reported by the test above
      const kind = kindOf(op);
      for (const caller of CALLERS) {
        cells += 1;
        const outcome = expected(entry, caller, kind !== undefined);
        if (entry.stream && outcome === 'allowed') continue;
        // A DELETE that is allowed takes a throwaway object, so the next caller still has one.
        const id =
          kind === undefined
            ? (entry.pathValue ?? '')
            : outcome === 'allowed' && op.method === 'DELETE'
              ? await world.fresh(kind)
              : world.ids[kind];
        const body = entry.body ? await entry.body(world) : undefined;
        requests += 1;
        const response = await world.app.inject({
          method: op.method as 'GET',
          url: concretePath(op, id, world.updateId),
          headers: { ...world.headers[caller], ...body?.headers },
          ...(body ? { payload: body.payload } : {}),
        });
        const status = response.statusCode;
        const cell = `${op.key} as ${caller}: ${status} ${response.body.slice(0, 200)}`;
        if (outcome !== 'allowed') {
          const code = response.json<{ code?: string }>().code;
          if (status !== outcome || code !== CODE_OF[outcome])
            failures.push(`${cell} (expected ${outcome})`);
          continue;
        }
        const allowed =
          caller === 'otherAdministrator'
            ? status < 500 && status !== 401 && status !== 403
            : (status >= 200 && status < 300) || (entry.alsoAllowed ?? []).includes(status);
        if (!allowed) failures.push(`${cell} (expected to be allowed)`);
        if (
          caller === 'otherAdministrator' &&
          FIRST_ORGANIZATION_MARKERS.some((marker) => response.body.includes(marker))
        )
          failures.push(`${cell} (reads the first organization's data)`);
      }
    }
    console.log(
      `route matrix: ${listed.length + unlisted.length} operations × ${CALLERS.length} callers` +
        ` = ${cells} cells, ${requests} requests, ${failures.length} failures`,
    );
    expect(failures).toEqual([]);
  }, 180_000);
});
