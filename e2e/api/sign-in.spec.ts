// Signing in to the API (`POST /login/access-token`, form-encoded as OAuth2's password flow):
// a user's password gives a bearer token that reads its profile; a wrong password is a 400 in
// the shared error shape and gives no token (two failures: far below the limits last.spec.ts
// reaches); a missing or forged token is a 401.
import type { AccessToken, ErrorResponse, User } from '@palisade/contract';
import { apiTest as test, expect } from '../fixtures.ts';
import { ok } from '../lib/rest.ts';

test('sign-in: a password gives a token that reads the profile', async ({
  request,
  userWithRole,
}) => {
  const { email, password } = await userWithRole('Viewer');
  const signIn = await request.post('login/access-token', { form: { username: email, password } });
  expect(signIn.status()).toBe(200);
  const token = (await signIn.json()) as AccessToken;
  expect(token.token_type).toBe('bearer');

  const me = await ok<User>(
    request.get('users/me', { headers: { authorization: `Bearer ${token.access_token}` } }),
  );
  expect(me).toMatchObject({ email, role: 'Viewer', is_active: true });
});

test('sign-in: a wrong password is a 400 in the error shape, and gives no token', async ({
  request,
  userWithRole,
}) => {
  const { email } = await userWithRole('Operator');
  const refused = await request.post('login/access-token', {
    form: { username: email, password: 'Not-the-password#1' },
  });
  expect(refused.status()).toBe(400);
  // The same words for an unknown e-mail and a wrong password: the answer tells nobody which.
  const body = (await refused.json()) as ErrorResponse & { access_token?: string };
  expect(body).toEqual({ msg: 'Incorrect email or password', code: 'bad_request' });

  const unknown = await request.post('login/access-token', {
    form: { username: `nobody-${email}`, password: 'Not-the-password#1' },
  });
  expect(unknown.status()).toBe(400);
  expect(await unknown.json()).toEqual(body);
});

test('sign-in: without a token or with a forged one, a route answers 401', async ({ request }) => {
  const none = await request.get('users/me');
  expect(none.status()).toBe(401);
  expect(((await none.json()) as ErrorResponse).code).toBe('unauthorized');

  const forged = await request.get('users/me', {
    headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.forged' },
  });
  expect(forged.status()).toBe(401);
  expect(((await forged.json()) as ErrorResponse).code).toBe('unauthorized');
});
