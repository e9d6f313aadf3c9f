// Request size limits: a JSON body over the API's 1 MiB is refused with 413 in the shared
// error shape before any handler runs, and nothing is made of it; one under the limit that
// breaks the schema is a 422.
import type { Device, ErrorResponse, ListResponse } from '@palisade/contract';
import { apiTest as test, expect } from '../fixtures.ts';
import { ok, refusal, uniqueName } from '../lib/rest.ts';

const MIB = 1024 * 1024;

test('limits: a body over 1 MiB is a 413, and creates nothing', async ({ admin }) => {
  const name = uniqueName('e2e-oversized');
  const response = await admin.post('devices/', {
    data: { name, password: 'Sensor-secret#2026', description: 'x'.repeat(MIB) },
  });
  expect(response.status()).toBe(413);
  expect(await refusal(response)).toEqual({
    msg: 'Request body is too large',
    code: 'payload_too_large',
  } satisfies ErrorResponse);

  const list = await ok<ListResponse<Device>>(
    admin.get(`devices/?${new URLSearchParams({ limit: '10', offset: '0', filter: name })}`),
  );
  expect(list.recordsTotal).toBe(0);
});

test('limits: a body under the limit with a field too long is a 422 naming the field', async ({
  admin,
}) => {
  const response = await admin.post('devices/', {
    data: { name: 'n'.repeat(201), password: 'Sensor-secret#2026' },
  });
  expect(response.status()).toBe(422);
  const body = await refusal(response);
  expect(body.code).toBe('validation_failed');
  expect(body.details?.map((detail) => detail.field)).toContain('body.name');
});
