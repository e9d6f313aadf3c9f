// The paged lists' query (`limit`, `offset`, `sortBy`, `sortDesc`, `filter`, comma-joined as
// SPEC.md §5 sends them) is checked against each list's whitelist: a field it does not know is
// a 422 naming the field, never a 500, and a known one sorts and filters.
import type { Device, ErrorResponse, ListResponse } from '@palisade/contract';
import { apiTest as test, expect } from '../fixtures.ts';
import { ok, refusal, uniqueName } from '../lib/rest.ts';

const query = (params: Record<string, string>) =>
  new URLSearchParams({ limit: '100', offset: '0', ...params }).toString();

test('lists: sorted and filtered by whitelisted fields, in the order asked', async ({
  admin,
  removeAfter,
}) => {
  const prefix = uniqueName('e2e-sorted');
  for (const suffix of ['b', 'c', 'a']) {
    const device = await ok<Device>(
      admin.post('devices/', {
        data: { name: `${prefix}-${suffix}`, password: 'Sensor-secret#2026' },
      }),
    );
    removeAfter(`devices/${device.id}`);
  }
  const names = async (sortDesc: string) => {
    const list = await ok<ListResponse<Device>>(
      admin.get(`devices/?${query({ sortBy: 'name', sortDesc, filter: prefix })}`),
    );
    expect(list.recordsTotal).toBe(3);
    return list.data.map((device) => device.name);
  };
  expect(await names('false')).toEqual(['a', 'b', 'c'].map((s) => `${prefix}-${s}`));
  expect(await names('true')).toEqual(['c', 'b', 'a'].map((s) => `${prefix}-${s}`));

  const page = await ok<ListResponse<Device>>(
    admin.get(
      `devices/?${query({ sortBy: 'name', sortDesc: 'false', filter: prefix, limit: '1', offset: '1' })}`,
    ),
  );
  expect(page.recordsTotal).toBe(3);
  expect(page.data.map((device) => device.name)).toEqual([`${prefix}-b`]);
});

for (const [route, params, field] of [
  ['devices/', { sortBy: 'password_hash' }, 'sortBy'],
  ['rules/', { sortBy: 'sid,__proto__', sortDesc: 'false,true' }, 'sortBy'],
  ['policies/', { sortBy: 'constructor' }, 'sortBy'],
  ['devices/', { filter: 'password_hash:x' }, 'filter'],
  ['rules/', { sortDesc: 'maybe' }, 'querystring.sortDesc.0'],
] as const) {
  test(`lists: ${route}?${new URLSearchParams(params)} is a 422 naming ${field}`, async ({
    admin,
  }) => {
    const response = await admin.get(`${route}?${query(params)}`);
    expect(response.status()).toBe(422);
    const body: ErrorResponse = await refusal(response);
    expect(body.code).toBe('validation_failed');
    expect(body.details?.[0]?.field).toBe(field);
  });
}
