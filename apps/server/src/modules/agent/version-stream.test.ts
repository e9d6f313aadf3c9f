import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  until,
  type TestServer,
} from '../../test/harness.js';

const PASSWORD = 'device-secret-1234';

describe('an agent push stream under a revoked token', () => {
  let server: TestServer;
  let admin: { authorization: string };
  let port: number;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    port = (server.app.server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  /** A new device and an open push stream under its agent token. */
  async function connectedDevice(name: string) {
    const created = await api(server.app, {
      method: 'POST',
      url: '/devices/',
      headers: admin,
      payload: { name, password: PASSWORD },
    });
    const id = created.json<{ id: number }>().id;
    const login = await api(server.app, {
      method: 'POST',
      url: '/agent/login',
      payload: { device_id: id, password: PASSWORD, protocol: 1 },
    });
    const authorization = `Bearer ${login.json<{ access_token: string }>().access_token}`;
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/agent/events`, {
      headers: { authorization },
      signal: controller.signal,
    });
    if (!response.body) throw new Error('no event stream');
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
    const stream = { received: '', ended: false };
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        stream.received += new TextDecoder().decode(value);
      }
    })()
      .catch(() => undefined)
      .finally(() => {
        stream.ended = true;
      });
    await until('the first versions event', () =>
      stream.received.includes('event: versions') ? true : undefined,
    );
    return { id, authorization, stream, close: () => controller.abort() };
  }

  it('ends when the device gets a new password, and reopening it is refused', async () => {
    const device = await connectedDevice('sensor-new-password');
    const bystander = await connectedDevice('sensor-bystander');
    const changed = await api(server.app, {
      method: 'PUT',
      url: `/devices/${device.id}`,
      headers: admin,
      payload: { password: 'device-secret-5678' },
    });
    expect(changed.statusCode).toBe(200);
    await until('the stream to end', () => (device.stream.ended ? true : undefined));
    const reopened = await fetch(`http://127.0.0.1:${port}/api/v1/agent/events`, {
      headers: { authorization: device.authorization },
    });
    expect(reopened.status).toBe(401);
    // The same notification reached the organization's other streams, which stay open.
    expect(bystander.stream.ended).toBe(false);
    bystander.close();
  });

  it('ends when the device is deleted', async () => {
    const device = await connectedDevice('sensor-deleted');
    const deleted = await api(server.app, {
      method: 'DELETE',
      url: `/devices/${device.id}`,
      headers: admin,
    });
    expect(deleted.statusCode).toBeLessThan(300);
    await until('the stream to end', () => (device.stream.ended ? true : undefined));
  });
});
