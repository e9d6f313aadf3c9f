// The README's first command as a new user meets it: the built server started the way
// `npm start` starts it, from a folder of its own, with no DATA_DIR, no ADMIN_* and no
// database set. It must print how to sign in, keep its data in ./data of that folder, serve
// the console, and sign in with the printed password; a second start keeps the data.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';

const ROOT = path.resolve(import.meta.dirname, '..');

const STARTUP_TIMEOUT_MS = 120_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** `npm start` runs `npm run build && <this>`: the node command, its paths made absolute. */
function startCommand() {
  const script = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const [, run] = script.split('&&').map((part) => part.trim());
  const [program, ...args] = run.split(/\s+/);
  if (program !== 'node')
    throw new Error(`npm start no longer ends with a node command: ${script}`);
  return args.map((arg) => (arg.startsWith('-') ? arg : path.join(ROOT, arg)));
}

/** Environment of a new user's shell: none of the server's own variables. */
function userEnvironment(port) {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (
      /^(DATA_DIR|DATABASE_URL|ADMIN_|SECRET_KEY|AUTH_DISABLED|DEMO_FLEET|TRUST_PROXY)/.test(name)
    ) {
      delete env[name];
    }
  }
  // The one exception: a free port, so that a console already on 8080 does not collide.
  return { ...env, PORT: String(port), LOG_LEVEL: 'warn' };
}

/** Starts the server in `cwd`, runs `whileUp(banner, baseUrl)`, stops it with SIGTERM. */
function runServer(cwd, port, whileUp) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, startCommand(), {
      cwd,
      env: userEnvironment(port),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let started = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start within ${STARTUP_TIMEOUT_MS} ms:\n${output}`));
    }, STARTUP_TIMEOUT_MS);
    const onData = (chunk) => {
      output += chunk.toString();
      if (started || !/is running at[\s\S]*\n\n/.test(output)) return;
      started = true;
      whileUp(output, `http://127.0.0.1:${port}`)
        .then(
          (value) => ({ value }),
          (error) => ({ error }),
        )
        .then((result) => {
          child.once('exit', (code, signal) => {
            clearTimeout(timer);
            if (result.error) reject(result.error);
            else resolve({ output, code, signal, value: result.value });
          });
          child.kill('SIGTERM');
        });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code, signal) => {
      if (started) return;
      clearTimeout(timer);
      reject(new Error(`the server stopped (${code ?? signal}) before it started:\n${output}`));
    });
  });
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

async function signIn(baseUrl, password) {
  const response = await fetch(`${baseUrl}/api/v1/login/access-token`, {
    method: 'POST',
    body: new URLSearchParams({ username: 'admin@palisade.local', password }),
  });
  if (response.status !== 200) return response.status;
  const { access_token: token } = await response.json();
  const me = await fetch(`${baseUrl}/api/v1/users/me`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return me.status === 200 ? 'signed in' : `users/me answered ${me.status}`;
}

const home = await mkdtemp(path.join(os.tmpdir(), 'palisade-first-start-'));
try {
  const port = await freePort();
  const first = await runServer(home, port, async (banner, baseUrl) => {
    const password = /generated password (\S+)/.exec(banner)?.[1];
    check(password, `the first start printed no generated password:\n${banner}`);
    const page = await fetch(`${baseUrl}/devices`);
    const html = await page.text();
    check(page.status === 200 && html.includes('<div id="root">'), 'the console is not served');
    return { password, signedIn: await signIn(baseUrl, password) };
  });
  check(
    first.output.includes('First start: sign in as admin@palisade.local'),
    `the banner does not say how to sign in:\n${first.output}`,
  );
  check(
    first.value.signedIn === 'signed in',
    `sign-in with the printed password: ${first.value.signedIn}`,
  );
  check(existsSync(path.join(home, 'data/pglite')), 'the database is not in ./data/pglite');
  check(existsSync(path.join(home, 'data/secret_key')), 'the secret key is not in ./data');
  console.log(`ok   first start in ${home}: printed password signs in, data in ./data`);

  const second = await runServer(home, port, (_banner, baseUrl) =>
    signIn(baseUrl, first.value.password),
  );
  check(!second.output.includes('First start'), 'the second start claimed to be the first');
  check(second.value === 'signed in', `sign-in after a restart: ${second.value}`);
  console.log('ok   second start keeps the data: the same password signs in');
} finally {
  await rm(home, { recursive: true, force: true });
}
