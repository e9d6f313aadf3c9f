// Issue 19 item 4: every list's search box takes the alerts' syntax (words, "quoted phrases",
// -negation, OR) over that list's search columns, beside its field:value filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../test/harness.js';

type Headers = { authorization: string };

describe('the search syntax of lists', () => {
  let server: TestServer;
  let admin: Headers;

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    api(server.app, {
      method,
      url,
      headers: admin,
      ...(payload === undefined ? {} : { payload }),
    });
  const names = async (list: string, filter: string) => {
    const response = await call(
      'GET',
      `/${list}/?limit=100&offset=0&sortBy=name&sortDesc=false&filter=${encodeURIComponent(filter)}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { name: string }[] }>().data.map((row) => row.name);
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    for (const [name, description, city] of [
      ['edge-berlin', 'core router north', 'Berlin'],
      ['edge-paris', 'router core south', 'Paris'],
      ['lab-sensor', 'test bench, core', 'Berlin'],
      ['dmz-tap', 'span port', 'Oslo'],
    ] as const) {
      const created = await call('POST', '/devices/', {
        name,
        description,
        city,
        password: 'sensor-secret-2026',
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    for (const [name, description] of [
      ['Web attacks', 'HTTP exploit rules'],
      ['Malware C2', 'command and control, trojans'],
      ['Policy noise', 'chat and games'],
    ] as const) {
      const created = await call('POST', '/groups/', { name, description });
      expect(created.statusCode, created.body).toBe(201);
    }
  });
  afterAll(() => server.close());

  it('finds devices by words anywhere, a quoted phrase as written, -negation and OR', async () => {
    expect(await names('devices', 'core router')).toEqual(['edge-berlin', 'edge-paris']);
    expect(await names('devices', '"core router"')).toEqual(['edge-berlin']);
    expect(await names('devices', 'core -router')).toEqual(['lab-sensor']);
    expect(await names('devices', 'core -"router north"')).toEqual(['edge-paris', 'lab-sensor']);
    expect(await names('devices', 'oslo OR paris')).toEqual(['dmz-tap', 'edge-paris']);
    expect(await names('devices', '"bench, core"')).toEqual(['lab-sensor']);
    // Words look in every search column (name, description, city): Berlin is a city.
    expect(await names('devices', 'berlin -edge')).toEqual(['lab-sensor']);
  });

  it('keeps field:value terms beside the text, and ids for the rows in view', async () => {
    expect(await names('devices', 'city:Berlin, core -router')).toEqual(['lab-sensor']);
    expect(await names('devices', 'online:false, span')).toEqual(['dmz-tap']);
    const all = (await call('GET', '/devices/?limit=100&offset=0')).json<{
      data: { id: number; name: string }[];
    }>().data;
    const ids = all.filter((d) => d.name.startsWith('edge')).map((d) => d.id);
    expect((await names('devices', `id:${ids.join('|')}`)).sort()).toEqual([
      'edge-berlin',
      'edge-paris',
    ]);
    const bad = await call('GET', '/devices/?limit=10&offset=0&filter=id:1|x');
    expect(bad.statusCode).toBe(422);
    expect((await call('GET', '/devices/?limit=10&offset=0&filter=nope:1')).statusCode).toBe(422);
  });

  it('treats wildcards and quotes literally, and bounds what it reads', async () => {
    expect(await names('devices', '%')).toEqual([]);
    expect(await names('devices', '"unclosed core')).toEqual([]);
    expect(await names('devices', '-')).toHaveLength(4);
    const long = (await call('GET', `/devices/?limit=10&offset=0&filter=${'a'.repeat(1001)}`))
      .statusCode;
    expect(long).toBe(422);
    // Past 20 terms the rest is ignored: the 21st would exclude every device.
    const many = `${Array.from({ length: 20 }, () => 'o').join(' ')} -o`;
    expect(await names('devices', many)).toHaveLength(4);
  });

  it('uses the same syntax on the rule groups list', async () => {
    expect(await names('groups', 'and')).toEqual(['Malware C2', 'Policy noise']);
    expect(await names('groups', 'and -games')).toEqual(['Malware C2']);
    expect(await names('groups', '"command and control" OR exploit')).toEqual([
      'Malware C2',
      'Web attacks',
    ]);
  });
});
