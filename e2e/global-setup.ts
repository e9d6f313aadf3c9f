// Starts what every browser test shares, once: an SMTP listener that spools every message, the
// real server on a free port with a fresh DATA_DIR, and the benchmark pages. Their addresses go
// to the test workers as E2E_* environment variables; the returned function stops them.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startBenchPages, startServer, startSmtp } from './lib/env.ts';

export default async function globalSetup() {
  const spoolDir = await mkdtemp(path.join(tmpdir(), 'palisade-e2e-mail-'));
  const spool = path.join(spoolDir, 'mail.jsonl');
  await writeFile(spool, '');
  const smtp = await startSmtp(spool);
  // Jobs looked for every 5 s (60 by default): a canary gate or a scheduled source update then
  // happens within a test's time.
  const server = await startServer({ smtpPort: smtp.port, extraEnv: { JOB_CHECK_SECONDS: '5' } });
  const benchPages = await startBenchPages();
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_DATA_DIR = server.dataDir;
  process.env.E2E_SMTP_PORT = String(smtp.port);
  process.env.E2E_SMTP_SPOOL = spool;
  process.env.E2E_BENCH_URL = `${benchPages.baseUrl}/bench.html`;
  return async () => {
    await server.stop();
    await benchPages.stop();
    await smtp.close();
    await rm(spoolDir, { recursive: true, force: true });
  };
}
