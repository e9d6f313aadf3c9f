// Direct API calls the browser tests use to arrange state (never to check the UI).
export function apiClient(baseUrl) {
  const url = (path) => `${baseUrl}/api/v1/${path}`;
  async function json(response) {
    const text = await response.text();
    const body = text === '' ? null : JSON.parse(text);
    if (!response.ok) {
      const error = new Error(`${response.status} ${text}`);
      error.status = response.status;
      throw error;
    }
    return body;
  }
  return {
    async token(email, password) {
      const response = await fetch(url('login/access-token'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: email, password }),
      });
      return (await json(response)).access_token;
    },
    async createUser(token, user) {
      const response = await fetch(url('users/'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(user),
      });
      return json(response);
    },
    async register(user) {
      const response = await fetch(url('users/open'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(user),
      });
      return json(response);
    },
    async get(token, path) {
      return json(await fetch(url(path), { headers: { authorization: `Bearer ${token}` } }));
    },
  };
}
