// Roles on the API (DESIGN.md: Administrator everything; Operator devices, policies, rules,
// firewall, no user management; Viewer read-only), enforced by the server whatever a client
// shows: a refused write is a 403 in the shared error shape and leaves nothing behind.
import type { APIRequestContext } from '@playwright/test';
import type { Device, ErrorResponse, ListResponse, User } from '@palisade/contract';
import { apiTest as test, expect } from '../fixtures.ts';
import { ok, refusal, uniqueName } from '../lib/rest.ts';

/** Devices named exactly `name`, as `api` lists them. */
async function devicesNamed(api: APIRequestContext, name: string): Promise<Device[]> {
  const params = new URLSearchParams({ limit: '10', offset: '0', filter: name });
  const list = await ok<ListResponse<Device>>(api.get(`devices/?${params}`));
  return list.data.filter((device) => device.name === name);
}

const forbidden = (body: ErrorResponse) => expect(body.code).toBe('forbidden');

test('roles: a Viewer reads devices but is refused creating, changing or deleting one', async ({
  admin,
  userWithRole,
  removeAfter,
}) => {
  const viewer = (await userWithRole('Viewer')).as;
  const existing = await ok<Device>(
    admin.post('devices/', {
      data: { name: uniqueName('e2e-viewed'), password: 'Sensor-secret#2026' },
    }),
  );
  removeAfter(`devices/${existing.id}`);
  expect(await devicesNamed(viewer, existing.name)).toHaveLength(1);

  const name = uniqueName('e2e-viewer-made');
  const create = await viewer.post('devices/', { data: { name, password: 'Sensor-secret#2026' } });
  expect(create.status()).toBe(403);
  forbidden(await refusal(create));
  const rename = await viewer.put(`devices/${existing.id}`, { data: { name } });
  expect(rename.status()).toBe(403);
  forbidden(await refusal(rename));
  const remove = await viewer.delete(`devices/${existing.id}`);
  expect(remove.status()).toBe(403);
  forbidden(await refusal(remove));

  expect(await devicesNamed(admin, name)).toEqual([]);
  expect(await devicesNamed(admin, existing.name)).toHaveLength(1);
});

test('roles: an Operator creates devices but is refused user management', async ({
  admin,
  userWithRole,
  removeAfter,
}) => {
  const operator = (await userWithRole('Operator')).as;
  const device = await ok<Device>(
    operator.post('devices/', {
      data: { name: uniqueName('e2e-operated'), password: 'Sensor-secret#2026' },
    }),
  );
  removeAfter(`devices/${device.id}`);
  expect(await devicesNamed(admin, device.name)).toHaveLength(1);

  const email = `${uniqueName('e2e-not-made')}@example.com`;
  const create = await operator.post('users/', {
    data: { email, password: 'Made-up#2026', role: 'Administrator' },
  });
  expect(create.status()).toBe(403);
  forbidden(await refusal(create));
  const list = await operator.get('users/');
  expect(list.status()).toBe(403);
  forbidden(await refusal(list));

  const users = await ok<ListResponse<User>>(admin.get('users/?limit=99999&offset=0'));
  expect(users.data.map((user) => user.email)).not.toContain(email);
});
