/** Where the server hands out the install script (public, like the agent builds). */
export const installScriptUrl = (origin: string): string => `${origin}/api/v1/agent/install.sh`;

/**
 * The one-liner that installs and enrols the agent on a sensor. The token is single-use and
 * expires, so it may sit in a shell history; the device's password never appears in it.
 */
export function installCommand(origin: string, token: string): string {
  return `curl -fsSL ${installScriptUrl(origin)} | sudo sh -s -- --server ${origin} --token ${token}`;
}
