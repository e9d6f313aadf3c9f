import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  login,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { LOGIN_LIMITS } from './auth.service.js';

describe('sign-in', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('signs in with e-mail and password, form-encoded, and the token opens /users/me', async () => {
    const response = await login(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ access_token: string; token_type: string }>();
    expect(body.token_type).toBe('bearer');

    const me = await api(server.app, {
      url: '/users/me',
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: ADMIN_EMAIL,
      role: 'Administrator',
      organization: 'Default',
    });
  });

  it('accepts the e-mail in any case', async () => {
    expect((await login(server.app, ADMIN_EMAIL.toUpperCase(), ADMIN_PASSWORD)).statusCode).toBe(
      200,
    );
  });

  it('refuses a wrong password and an unknown user alike, with 400 and a message', async () => {
    const wrong = await login(server.app, ADMIN_EMAIL, 'Wrong#2026', '10.9.0.1');
    const unknown = await login(server.app, 'nobody@example.com', 'Wrong#2026', '10.9.0.1');
    expect(wrong.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json<{ msg: string }>().msg).toBe('Incorrect email or password');
  });

  it('answers 401 without a token or with a forged one', async () => {
    expect((await api(server.app, { url: '/users/me' })).statusCode).toBe(401);
    const forged = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('palisade')
      .setAudience('palisade-console')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not the server key, but long enough to sign'));
    const response = await api(server.app, {
      url: '/users/me',
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ msg: 'Could not validate credentials' });
  });

  it('answers 401 to an expired token', async () => {
    const key = (await readFile(path.join(server.dataDir, 'secret_key'), 'utf8')).trim();
    const expired = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('palisade')
      .setAudience('palisade-console')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(key));
    const response = await api(server.app, {
      url: '/users/me',
      headers: { authorization: `Bearer ${expired}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it('rate-limits guessing per user and address with 429, leaving other addresses alone', async () => {
    const email = 'guessed@example.com';
    const admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    await api(server.app, {
      method: 'POST',
      url: '/users/',
      headers: admin,
      payload: { email, password: 'Guessed#2026', role: 'Viewer' },
    });
    const attacker = '203.0.113.7';
    for (let attempt = 0; attempt < LOGIN_LIMITS.perUserAndAddress; attempt += 1) {
      expect((await login(server.app, email, `Wrong#${attempt}`, attacker)).statusCode).toBe(400);
    }
    const limited = await login(server.app, email, 'Guessed#2026', attacker);
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ code: string }>().code).toBe('rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter, 'Retry-After: the seconds left in the window').toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_LIMITS.windowSeconds);
    // The right password from the owner's own address still works.
    expect((await login(server.app, email, 'Guessed#2026', '198.51.100.20')).statusCode).toBe(200);
  });
});

describe('sign-in limits behind reverse proxies (TRUST_PROXY)', () => {
  const guess = (app: TestServer['app'], forwardedFor: string, remoteAddress: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/login/access-token',
      remoteAddress,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': forwardedFor,
      },
      payload: new URLSearchParams({ username: ADMIN_EMAIL, password: 'Wrong#2026' }).toString(),
    });

  /** Wrong passwords, each with a new forged first hop, until the limit answers (or 40 tries). */
  async function guessesUntilLimited(
    app: TestServer['app'],
    realClient: string,
    proxyChain: string[],
    socketPeer: string,
  ): Promise<number> {
    for (let attempt = 1; attempt <= 40; attempt += 1) {
      const forged = `198.18.${attempt}.${attempt}`;
      const header = [forged, realClient, ...proxyChain].join(', ');
      const response = await guess(app, header, socketPeer);
      if (response.statusCode === 429) {
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
        return attempt;
      }
      expect(response.statusCode).toBe(400);
    }
    return Infinity;
  }

  it('with a hop count, a forged first hop does not escape the limit', async () => {
    const server = await startTestServer({ TRUST_PROXY: '1' });
    try {
      const tried = await guessesUntilLimited(server.app, '203.0.113.9', [], '10.0.0.2');
      expect(tried).toBe(LOGIN_LIMITS.perUserAndAddress + 1);
      // Another client behind the same proxy is not locked out by the first one.
      expect((await login(server.app, ADMIN_EMAIL, ADMIN_PASSWORD, '10.0.0.2')).statusCode).toBe(
        200,
      );
    } finally {
      await server.close();
    }
  });

  it('with proxy networks, the client is the first address from the right they do not cover', async () => {
    const server = await startTestServer({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.1' });
    try {
      const tried = await guessesUntilLimited(
        server.app,
        '203.0.113.10',
        ['192.0.2.1', '10.1.2.3'],
        '10.0.0.2',
      );
      expect(tried).toBe(LOGIN_LIMITS.perUserAndAddress + 1);
      // A peer that is not a named proxy is the client itself, whatever it forwards.
      const direct = await guess(server.app, '203.0.113.10', '198.51.100.7');
      expect(direct.statusCode).toBe(400);
    } finally {
      await server.close();
    }
  });

  it('with true, one proxy is trusted: the same as 1', async () => {
    const server = await startTestServer({ TRUST_PROXY: 'true' });
    try {
      expect(await guessesUntilLimited(server.app, '203.0.113.11', [], '10.0.0.2')).toBe(
        LOGIN_LIMITS.perUserAndAddress + 1,
      );
    } finally {
      await server.close();
    }
  });
});

describe('revoked tokens', () => {
  let server: TestServer;
  let admin: { authorization: string };
  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(() => server.close());

  async function newUser(email: string) {
    const created = await api(server.app, {
      method: 'POST',
      url: '/users/',
      headers: admin,
      payload: { email, password: 'Member#2026', role: 'Operator' },
    });
    expect(created.statusCode).toBe(201);
    return {
      id: created.json<{ id: number }>().id,
      headers: await signIn(server.app, email, 'Member#2026'),
    };
  }
  const me = (headers: { authorization: string }) => api(server.app, { url: '/users/me', headers });

  it('stop working when the user is deactivated', async () => {
    const user = await newUser('deactivated@example.com');
    expect((await me(user.headers)).statusCode).toBe(200);
    await api(server.app, {
      method: 'PUT',
      url: `/users/${user.id}`,
      headers: admin,
      payload: { is_active: false },
    });
    expect((await me(user.headers)).statusCode).toBe(401);
    expect(
      (await login(server.app, 'deactivated@example.com', 'Member#2026')).json(),
    ).toMatchObject({
      msg: 'Inactive user',
    });
  });

  it('stop working when the user is deleted', async () => {
    const user = await newUser('deleted@example.com');
    await api(server.app, { method: 'DELETE', url: `/users/${user.id}`, headers: admin });
    expect((await me(user.headers)).statusCode).toBe(401);
  });

  it('stop working when the user changes password, while the new sign-in works', async () => {
    const user = await newUser('changer@example.com');
    const changed = await api(server.app, {
      method: 'PUT',
      url: '/users/me',
      headers: user.headers,
      payload: { password: 'Changed#2027', current_password: 'Member#2026' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await me(user.headers)).statusCode).toBe(401);
    expect((await login(server.app, 'changer@example.com', 'Member#2026')).statusCode).toBe(400);
    expect(
      (await me(await signIn(server.app, 'changer@example.com', 'Changed#2027'))).statusCode,
    ).toBe(200);
  });

  it('refuse a password change without the right current password', async () => {
    const user = await newUser('careful@example.com');
    const missing = await api(server.app, {
      method: 'PUT',
      url: '/users/me',
      headers: user.headers,
      payload: { password: 'Changed#2027' },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({
      details: [{ field: 'body.current_password', msg: 'Required' }],
    });
    const wrong = await api(server.app, {
      method: 'PUT',
      url: '/users/me',
      headers: user.headers,
      payload: { password: 'Changed#2027', current_password: 'Guess#0000' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ msg: 'Incorrect password' });
    expect((await me(user.headers)).statusCode).toBe(200);
  });
});

describe('registration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const register = (payload: Record<string, unknown>, remoteAddress = '127.0.0.1') =>
    api(server.app, { method: 'POST', url: '/users/open', payload, remoteAddress });

  it('creates an organization whose registrant is its Administrator', async () => {
    const response = await register({
      email: 'Founder@Acme.example',
      password: 'Founder#2026',
      first_name: 'Ada',
      last_name: 'Lovelace',
      organization: 'Acme',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      email: 'founder@acme.example',
      role: 'Administrator',
      organization: 'Acme',
      is_active: true,
    });
    const headers = await signIn(server.app, 'founder@acme.example', 'Founder#2026');
    const users = await api(server.app, { url: '/users/', headers });
    expect(users.json()).toMatchObject({
      recordsTotal: 1,
      data: [{ email: 'founder@acme.example' }],
    });
  });

  it("refuses a taken e-mail with 400 'User already exist'", async () => {
    const response = await register({
      email: ADMIN_EMAIL,
      password: 'Another#2026',
      organization: 'Other',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ msg: 'User already exist' });
  });

  it('names every rule a weak password breaks, and the bad e-mail', async () => {
    const response = await register({ email: 'not-an-email', password: 'weak', organization: '' });
    expect(response.statusCode).toBe(422);
    const { details } = response.json<{ details: { field: string; msg: string }[] }>();
    expect(details).toEqual(
      expect.arrayContaining([
        { field: 'body.email', msg: 'Not valid' },
        { field: 'body.password', msg: 'Min 8 characters' },
        { field: 'body.password', msg: 'Must have one special character among ! @ # $ %' },
        { field: 'body.password', msg: 'Must have one uppercase character' },
        { field: 'body.password', msg: 'Must have one number' },
        { field: 'body.organization', msg: 'Required' },
      ]),
    );
  });

  it('limits registrations per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const response = await register(
        { email: `bulk${i}@example.com`, password: 'Bulk#2026x', organization: `Bulk ${i}` },
        '192.0.2.99',
      );
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10).every((status) => status === 201)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

describe('password recovery through a real SMTP server', () => {
  let server: TestServer;
  let smtp: SMTPServer;
  const received: { to: string; body: string }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','),
            body: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const { port } = smtp.server.address() as AddressInfo;
    server = await startTestServer(
      { SMTP_URL: `smtp://127.0.0.1:${port}` },
      { captureMail: false },
    );
  });
  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const recover = (username: string, remoteAddress = '127.0.0.1') =>
    api(server.app, {
      method: 'POST',
      url: `/password-recovery/${encodeURIComponent(username)}`,
      remoteAddress,
    });
  const reset = (token: string, new_password: string) =>
    api(server.app, { method: 'POST', url: '/reset-password/', payload: { token, new_password } });

  it('mails a single-use link that sets a new password and revokes old sessions', async () => {
    const oldSession = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const response = await recover(ADMIN_EMAIL);
    expect(response.statusCode).toBe(200);

    const mail = received.at(-1);
    expect(mail?.to).toBe(ADMIN_EMAIL);
    const unfolded = (mail?.body ?? '').replace(/=\r?\n/g, '');
    const token =
      /reset-password\?token=3D([A-Za-z0-9_-]+)|reset-password\?token=([A-Za-z0-9_-]+)/.exec(
        unfolded,
      );
    const value = token?.[1] ?? token?.[2];
    expect(value, 'the mail carries the reset link').toBeDefined();
    expect(unfolded).toContain('http://console.test/reset-password?token=');

    expect((await reset(value ?? '', 'Recovered#2026')).statusCode).toBe(200);
    expect((await login(server.app, ADMIN_EMAIL, ADMIN_PASSWORD)).statusCode).toBe(400);
    expect((await login(server.app, ADMIN_EMAIL, 'Recovered#2026')).statusCode).toBe(200);
    expect((await api(server.app, { url: '/users/me', headers: oldSession })).statusCode).toBe(401);

    const again = await reset(value ?? '', 'Twice#2026x');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ msg: 'Invalid token' });
  });

  it('refuses a made-up token and a weak new password', async () => {
    expect((await reset('made-up-token', 'Strong#2026')).json()).toMatchObject({
      msg: 'Invalid token',
    });
    expect((await reset('made-up-token', 'weak')).statusCode).toBe(422);
  });

  it('answers 404 for an unknown user and 429 when asked too often', async () => {
    expect((await recover('ghost@example.com', '192.0.2.50')).statusCode).toBe(404);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push((await recover(ADMIN_EMAIL, '192.0.2.51')).statusCode);
    expect(statuses).toEqual([200, 200, 429, 429]);
  });
});

describe('expired reset links', () => {
  it('are refused', async () => {
    const server = await startTestServer();
    try {
      await api(server.app, { method: 'POST', url: `/password-recovery/${ADMIN_EMAIL}` });
      const token = /token=([A-Za-z0-9_-]+)/.exec(server.outbox.at(-1)?.text ?? '')?.[1] ?? '';
      await server.db.query(
        `UPDATE password_reset_tokens SET expires_at = now() - interval '1 minute'`,
      );
      const response = await api(server.app, {
        method: 'POST',
        url: '/reset-password/',
        payload: { token, new_password: 'Late#20266' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ msg: 'Invalid token' });
    } finally {
      await server.close();
    }
  });
});
