// Starts what the browser tests need: an SMTP listener that keeps every message, the real
// server on a free port with a fresh data folder, the benchmark pages; Debian's Chromium.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const ADMIN = { email: 'admin@example.com', password: 'Admin#2026' };
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--headless',
];

export function freePort() {
  return new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Quoted-printable soft breaks and escapes undone, so links read as sent. */
export function decodeQuotedPrintable(text: string) {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * `spool`, when given, is a file every message is also appended to (a JSON line each), so test
 * workers in other processes read the mail (smtpClient).
 */
export async function startSmtp(spool?: string) {
  const messages: { to: string[]; raw: string; text: string }[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let data = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => (data += chunk));
      stream.on('end', () => {
        const message = {
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: data,
          text: decodeQuotedPrintable(data),
        };
        messages.push(message);
        if (spool) appendFileSync(spool, `${JSON.stringify(message)}\n`);
        for (const waiter of waiters.splice(0)) waiter();
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    messages,
    /** The next message to `to` (waits up to 10 s). */
    async next(to: string, since = 0) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const hit = messages.slice(since).find((m) => m.to.includes(to));
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within 10 s`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 250);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function startServer({
  smtpPort,
  extraEnv = {},
}: {
  smtpPort: number;
  extraEnv?: Record<string, string>;
}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'palisade-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(ROOT, 'apps/server/dist/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
      // The agent build of `npm run build`, which the onboarding test installs from the server.
      AGENT_RELEASE_DIR: path.join(ROOT, 'apps/agent/dist-release'),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  // A first start on PGlite took 81 s on a machine at load 25; 60 s gave up on it.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/api/v1/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not healthy within 180 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            child.kill('SIGKILL');
            resolve();
          }, 5000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The benchmark pages (apps/web/bench.html: the 5000-row and drag-sortable tables), which the
 * production console does not contain: built with `--mode bench` into apps/web/dist-bench and
 * served by Vite's preview server. Pages are at `${baseUrl}/bench.html`.
 */
export async function startBenchPages() {
  const web = path.join(ROOT, 'apps/web');
  const build = spawnSync('npx', ['vite', 'build', '--mode', 'bench', '--logLevel', 'warn'], {
    cwd: web,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the benchmark pages did not build');
  const { preview } = await import('vite');
  const port = await freePort();
  const server = await preview({
    root: web,
    mode: 'bench',
    logLevel: 'warn',
    preview: { host: '127.0.0.1', port, strictPort: true },
  });
  return { baseUrl: `http://127.0.0.1:${port}`, stop: () => server.close() };
}

/** The SMTP listener of the global set-up as a worker sees it: its port and the spooled mail. */
export function smtpClient(port: number, spool: string) {
  const read = () =>
    readFileSync(spool, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { to: string[]; raw: string; text: string });
  return {
    port,
    get messages() {
      return read();
    },
    /** The next message to `to` (waits up to 10 s). */
    async next(to: string, since = 0) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const hit = read()
          .slice(since)
          .find((m) => m.to.includes(to));
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}
