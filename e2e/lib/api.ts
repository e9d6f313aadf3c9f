// Direct API calls the browser tests use to arrange state (never to check the UI).
export function apiClient(baseUrl: string) {
  const url = (path: string) => `${baseUrl}/api/v1/${path}`;
  // Answers stay untyped here: the browser tests read what they arrange loosely.
  async function json(response: Response) {
    const text = await response.text();
    const body = text === '' ? null : JSON.parse(text);
    if (!response.ok) {
      const error: Error & { status?: number } = new Error(`${response.status} ${text}`);
      error.status = response.status;
      throw error;
    }
    return body;
  }
  return {
    async token(email: string, password: string): Promise<string> {
      const response = await fetch(url('login/access-token'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: email, password }),
      });
      return (await json(response)).access_token;
    },
    async createUser(token: string, user: Record<string, unknown>) {
      const response = await fetch(url('users/'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(user),
      });
      return json(response);
    },
    async register(user: Record<string, unknown>) {
      const response = await fetch(url('users/open'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(user),
      });
      return json(response);
    },
    async get(token: string, path: string) {
      return json(await fetch(url(path), { headers: { authorization: `Bearer ${token}` } }));
    },
  };
}

/** One JSON call to the API as `token` (none for an agent's sign-in); the parsed answer. */
export async function callApi(
  baseUrl: string,
  method: string,
  route: string,
  token?: string,
  body?: unknown,
) {
  const response = await fetch(`${baseUrl}/api/v1/${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return text === '' ? null : JSON.parse(text);
}

/** Suricata's eve.json timestamp form, `seconds` before now. */
export const eveTime = (seconds = 0) =>
  new Date(Date.now() - seconds * 1000).toISOString().replace('Z', '000+0000');

/**
 * A device that has signed in as its agent does and sent one heartbeat: created with `device`
 * (name, password, …), the heartbeat carrying `heartbeat`'s fields besides its state (metrics,
 * health, server_endpoint…). Answers the device as created, its agent's token, and
 * `sendAlerts(events)`, which ships eve.json events as its agent does.
 */
export async function reportingDevice(
  baseUrl: string,
  token: string,
  device: { name: string; password: string } & Record<string, unknown>,
  heartbeat: Record<string, unknown> = {},
) {
  const created = await callApi(baseUrl, 'POST', 'devices/', token, device);
  const login = await callApi(baseUrl, 'POST', 'agent/login', undefined, {
    device_id: created.id,
    password: device.password,
    agent_version: 'test',
  });
  const agentToken = login.access_token;
  await callApi(baseUrl, 'POST', 'agent/heartbeat', agentToken, {
    state: 'running',
    local: { config_version: null, policy_version: null },
    agent_version: 'test',
    ...heartbeat,
  });
  let seq = 0;
  return {
    device: created,
    agentToken,
    sendAlerts: (events: unknown[]) =>
      callApi(baseUrl, 'POST', 'agent/alerts', agentToken, { seq: (seq += 1), events }),
  };
}

/**
 * A device that has signed in as its agent does and sent one heartbeat: created with
 * `device` (name, password, …) and reporting `serverEndpoint` (the server's address and port
 * as its agent reaches it, which the firewall lock-out check protects) when given.
 */
export async function simulatedDevice(
  baseUrl: string,
  token: string,
  {
    serverEndpoint,
    ...device
  }: {
    name: string;
    password: string;
    serverEndpoint?: { address: string; port: number };
  } & Record<string, unknown>,
) {
  const sensor = await reportingDevice(
    baseUrl,
    token,
    device,
    serverEndpoint ? { server_endpoint: serverEndpoint } : {},
  );
  return sensor.device;
}

/**
 * Imports `text` as the rules file `fileName` and makes a policy `name` of the group it became;
 * answers the policy.
 */
export async function policyOfRules(
  baseUrl: string,
  token: string,
  fileName: string,
  text: string,
  name: string,
) {
  const form = new FormData();
  form.append('file', new Blob([text]), fileName);
  const response = await fetch(`${baseUrl}/api/v1/rules/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const report = await response.json();
  if (!response.ok) throw new Error(`rules/import: ${response.status} ${JSON.stringify(report)}`);
  const groups = await callApi(baseUrl, 'GET', 'groups/?limit=999999&offset=0', token);
  const group = groups.data.find((g: { name: string }) => g.name === report.files[0].group);
  return callApi(baseUrl, 'POST', 'policies/', token, { name, group_ids: [group.id] });
}
