import { call, http } from '../../../lib/api-client';

export interface ServerConfig {
  auth_disabled: boolean;
}

/** GET /config (no auth): whether the server runs with authentication disabled. */
export function fetchConfig(): Promise<ServerConfig> {
  return call(() => http.get('config').json<ServerConfig>());
}
