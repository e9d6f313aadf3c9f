// `palisade-agent enrol`: exchanges a single-use enrolment token for the device's credentials,
// then writes the password file (0600) and the server and device id into the JSON config file,
// so that `run --config FILE --password-file FILE` needs nothing more. Nothing is written
// unless the server accepted the token; folders this command made are removed if it fails.

import { access, chmod, constants, mkdir, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ApiError, AgentApi } from '../client/api.js';
import { isErrno, readJsonIfExists, writeFileAtomic } from '../fs/atomic.js';

/** Read by `enrol` only: a token on the command line would show in `ps` and shell history. */
export const ENROL_TOKEN_ENV = 'PALISADE_ENROL_TOKEN';
const PASSWORD_FILE_MODE = 0o600;
const NEW_CONFIG_MODE = 0o644;
const NEW_FOLDER_MODE = 0o755;
/** Config keys (either spelling) that enrolment writes; every other key is kept. */
const WRITTEN_KEYS = new Set(['server', 'device-id', 'deviceId']);

export interface EnrolRequest {
  /** Else the config file's `server`. */
  server: string | undefined;
  configFile: string;
  passwordFile: string;
  token: string;
  agentVersion: string;
  hostname: string;
}

export interface Enrolled {
  deviceId: number;
  deviceName: string;
}

/** A failure whose message is the one line the operator reads. */
export class EnrolError extends Error {
  override name = 'EnrolError';
}

function checkServer(server: string | undefined): string {
  if (server === undefined || server === '')
    throw new EnrolError('--server: the URL of the Palisade server is required');
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new EnrolError(`--server: ${server} is not a URL (e.g. https://palisade.example.org)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new EnrolError(`--server: ${server} is not an http(s) URL`);
  return server;
}

/** The config file's object as it is on disk (undefined when there is none yet). */
async function readConfig(file: string): Promise<Record<string, unknown> | undefined> {
  let parsed: unknown;
  try {
    parsed = await readJsonIfExists(file);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new EnrolError(`${file}: cannot read the config file (${why})`);
  }
  if (parsed === undefined) return undefined;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new EnrolError(`${file}: the config file must hold a JSON object`);
  return parsed as Record<string, unknown>;
}

/** Makes `dir` (0755) and its missing parents; the folders it made, deepest last. */
async function makeFolder(dir: string): Promise<string[]> {
  const first = await mkdir(dir, { recursive: true, mode: NEW_FOLDER_MODE });
  if (first === undefined) return [];
  const made: string[] = [];
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    made.unshift(at);
    if (at === path.resolve(first) || at === path.dirname(at)) break;
  }
  // 0755 whatever the umask: the service user reads the config from there.
  for (const folder of made) await chmod(folder, NEW_FOLDER_MODE);
  return made;
}

async function assertWritable(dir: string): Promise<void> {
  try {
    await access(dir, constants.W_OK);
  } catch {
    throw new EnrolError(`${dir}: this user cannot write there (run as root?)`);
  }
}

async function modeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).mode & 0o777;
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw error;
  }
}

function describeRefusal(error: unknown, server: string): EnrolError {
  if (error instanceof ApiError) {
    if (error.status === 401)
      return new EnrolError(
        'the enrolment token was refused (unknown, already used, expired or replaced): issue a new one in the console',
      );
    if (error.status === 429) {
      const wait = error.retryAfter ? ` in ${error.retryAfter} s` : ' later';
      return new EnrolError(`too many failed enrolments from this address: try again${wait}`);
    }
    if (error.status === 404)
      return new EnrolError(`${server} does not offer enrolment (is it a Palisade server?)`);
    return new EnrolError(`enrolment failed: ${error.message}`);
  }
  if (error instanceof Error && error.name === 'ZodError')
    return new EnrolError(`${server} answered something that is not an enrolment`);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const why = cause instanceof Error ? cause.message : String(cause);
  return new EnrolError(`cannot reach the server at ${server}: ${why}`);
}

export async function enrol(request: EnrolRequest): Promise<Enrolled> {
  if (request.token.trim() === '')
    throw new EnrolError(`no enrolment token: set ${ENROL_TOKEN_ENV} (issue one in the console)`);
  // Everything that can be checked before the token is spent is checked first.
  const existing = await readConfig(request.configFile);
  const configured = existing?.['server'];
  const server = checkServer(
    request.server ?? (typeof configured === 'string' ? configured : undefined),
  );
  const made: string[] = [];
  try {
    for (const file of [request.configFile, request.passwordFile]) {
      made.push(...(await makeFolder(path.dirname(file))));
      await assertWritable(path.dirname(file));
    }
    let answer;
    try {
      answer = await AgentApi.enrol({
        server,
        token: request.token.trim(),
        agentVersion: request.agentVersion,
        hostname: request.hostname,
      });
    } catch (error) {
      throw describeRefusal(error, server);
    }
    await writeFileAtomic(request.passwordFile, `${answer.password}\n`, {
      mode: PASSWORD_FILE_MODE,
    });
    const kept = Object.entries(existing ?? {}).filter(([key]) => !WRITTEN_KEYS.has(key));
    const config = { ...Object.fromEntries(kept), server, 'device-id': answer.device_id };
    await writeFileAtomic(request.configFile, `${JSON.stringify(config, null, 2)}\n`, {
      mode: (await modeOf(request.configFile)) ?? NEW_CONFIG_MODE,
    });
    return { deviceId: answer.device_id, deviceName: answer.device_name };
  } catch (error) {
    for (const dir of made.reverse()) await rmdir(dir).catch(() => undefined);
    throw error;
  }
}
