// A tiny TCP peer for the namespace traffic test, run as `ip netns exec NS node peer.mjs …`.
//   listen PORT…              answers every connection with the address it came from, then
//                             closes; prints "ready" once listening; exits when stdin closes.
//   connect HOST PORT MS      prints one JSON line: {"ok":true,"reply":"…"} or
//                             {"ok":false,"code":"ECONNREFUSED"|"TIMEOUT"|…}
import net from 'node:net';

const [mode, ...args] = process.argv.slice(2);

if (mode === 'listen') {
  let pending = args.length;
  for (const port of args) {
    const server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.end(`${(socket.remoteAddress ?? '?').replace(/^::ffff:/, '')}\n`);
    });
    server.listen(Number(port), () => {
      pending -= 1;
      if (pending === 0) process.stdout.write('ready\n');
    });
  }
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
} else if (mode === 'connect') {
  const [host, port, ms] = args;
  const started = Date.now();
  let reply = '';
  let done = false;
  const finish = (result) => {
    if (done) return;
    done = true;
    process.stdout.write(`${JSON.stringify({ ...result, ms: Date.now() - started })}\n`);
    process.exit(0);
  };
  const socket = net.connect({ host, port: Number(port) });
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => (reply += chunk));
  socket.on('end', () => finish({ ok: true, reply: reply.trim() }));
  socket.on('error', (error) => finish({ ok: false, code: error.code ?? error.message }));
  setTimeout(() => finish({ ok: false, code: 'TIMEOUT' }), Number(ms));
} else {
  process.stderr.write('usage: peer.mjs listen PORT… | connect HOST PORT MS\n');
  process.exit(2);
}
