/**
 * The host's nginx (deploy/nginx/host.conf.template, rendered as the image renders it, run with
 * Debian's nginx) in front of two API replicas under one name, one of which dies with each request
 * it reads (as a killed replica does): a GET, and a write with an Idempotency-Key, are sent on to
 * the other replica and succeed; a write without a key is not sent twice and fails (502).
 * The name resolves through a small DNS server here, as a compose network's or a cluster's would.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../serve/local-topology';
import { hostEnvironment, runEntrypoint } from '../serve/runtime-config';

const NAME = 'api.retry.test';
const REPLICAS = ['127.0.0.1', '127.0.0.2'];

/** A DNS server answering every A question for NAME with both replicas' addresses. */
function dnsServer(): Promise<Socket> {
  const socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    // Header (12 bytes), then the question: labels ending in a zero byte, then type and class.
    let end = 12;
    while (query[end] !== 0) end += (query[end] ?? 0) + 1;
    const question = query.subarray(12, end + 5);
    const labels: string[] = [];
    for (let at = 12; at < end; at += (query[at] ?? 0) + 1)
      labels.push(query.subarray(at + 1, at + 1 + (query[at] ?? 0)).toString());
    const isA = question.readUInt16BE(question.length - 4) === 1 && labels.join('.') === NAME;
    const answers = isA ? REPLICAS : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // the id
    header.writeUInt16BE(isA ? 0x8180 : 0x8183, 2); // a response; NXDOMAIN for anything else
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    const records = answers.map((address) => {
      const record = Buffer.alloc(16);
      record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      record.writeUInt16BE(1, 2); // A
      record.writeUInt16BE(1, 4); // IN
      record.writeUInt32BE(5, 6); // TTL
      record.writeUInt16BE(4, 10);
      address.split('.').forEach((part, index) => record.writeUInt8(Number(part), 12 + index));
      return record;
    });
    socket.send(Buffer.concat([header, question, ...records]), peer.port, peer.address);
  });
  return new Promise((resolve) => socket.bind(0, '127.0.0.1', () => resolve(socket)));
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createTcpServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

let dns: Socket;
let replicas: Server[];
let nginx: ChildProcess;
let prefix: string;
let hostUrl: string;
const seenByDead: string[] = [];

beforeAll(async () => {
  dns = await dnsServer();
  const apiPort = await freePort();
  // The dying replica reads the whole request, then drops the connection without an answer.
  const dead = createServer((req, res) => {
    seenByDead.push(`${req.method} ${req.headers['idempotency-key'] ? 'keyed' : 'unkeyed'}`);
    req.resume().on('end', () => res.socket?.destroy());
  });
  const alive = createServer((req, res) => {
    req.resume().on('end', () => {
      res
        .writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' })
        .end('{"replica":"alive"}');
    });
  });
  replicas = [dead, alive];
  await Promise.all(
    replicas.map((server, index) => new Promise<void>((resolve) => server.listen(apiPort, REPLICAS[index], resolve))),
  );

  prefix = mkdtempSync(join(tmpdir(), 'sg-api-retry-'));
  for (const dir of ['www', 'conf.d', 'logs', 'tmp']) mkdirSync(join(prefix, dir));
  cpSync(join(REPO_ROOT, 'deploy', 'nginx', 'snippets'), join(prefix, 'snippets'), { recursive: true });
  const port = await freePort();
  hostUrl = `http://127.0.0.1:${port}`;
  const env = runEntrypoint({
    ...hostEnvironment({
      apiUpstream: `http://${NAME}:${apiPort}`,
      remoteEntry: (name) => `http://127.0.0.1:1/${name}/remoteEntry.js`,
    }),
    PORT: String(port),
    STATIC_ROOT: join(prefix, 'www'),
    FRAGMENT_CACHE_DIR: join(prefix, 'tmp', 'fragments'),
    NGINX_RESOLVER: `127.0.0.1:${(dns.address() as AddressInfo).port}`,
    SIGN_UP_RATE_PER_MINUTE: '600000',
  });
  const template = readFileSync(join(REPO_ROOT, 'deploy', 'nginx', 'host.conf.template'), 'utf8');
  writeFileSync(
    join(prefix, 'conf.d', 'host.conf'),
    template.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (match, name: string) => env[name] ?? match),
  );
  const temp = (name: string) => `${name}_temp_path ${join(prefix, 'tmp', name)};`;
  writeFileSync(
    join(prefix, 'nginx.conf'),
    `${process.getuid?.() === 0 ? 'user root;' : ''} daemon off; worker_processes 1; pid ${join(prefix, 'logs', 'nginx.pid')};
     events { worker_connections 64; }
     http { access_log off; ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}
       include conf.d/host.conf; }`,
  );
  nginx = spawn('nginx', ['-p', `${prefix}/`, '-c', 'nginx.conf', '-e', join(prefix, 'logs', 'error.log')], {
    stdio: 'inherit',
  });
  for (let started = Date.now(); ;) {
    const up = await fetch(`${hostUrl}/api/v1/health`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() - started > 10_000)
      throw new Error(`nginx did not start: ${readFileSync(join(prefix, 'logs', 'error.log'), 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

afterAll(async () => {
  nginx?.kill('SIGTERM');
  dns?.close();
  await Promise.all((replicas ?? []).map((server) => new Promise((resolve) => server.close(resolve))));
  if (prefix) rmSync(prefix, { recursive: true, force: true });
});

const signUp = (key?: string) =>
  fetch(`${hostUrl}/api/v1/sign-ups`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: '{}',
  }).then((response) => response.status);

// nginx picks either replica first (the resolver rotates the addresses): 20 requests reach the
// dying one first many times over (all 20 missing it has a chance of 1 in 2^20).
it('GETs and keyed writes are retried on the other replica: every one succeeds', async () => {
  seenByDead.length = 0;
  const gets = [];
  for (let i = 0; i < 20; i++) gets.push((await fetch(`${hostUrl}/api/v1/ready`)).status);
  const posts = [];
  for (let i = 0; i < 20; i++) posts.push(await signUp(`key-${i}`));
  expect(gets).toEqual(Array(20).fill(200));
  expect(posts).toEqual(Array(20).fill(201));
  expect(seenByDead).toContain('GET unkeyed');
  expect(seenByDead).toContain('POST keyed');
});

it('a write without an Idempotency-Key is sent once: when its replica dies, it fails', async () => {
  seenByDead.length = 0;
  const statuses = [];
  for (let i = 0; i < 20; i++) statuses.push(await signUp());
  const failed = statuses.filter((status) => status === 502).length;
  expect(failed).toBeGreaterThan(0);
  // Each that reached the dying replica failed there, and was not sent on.
  expect(failed).toBe(seenByDead.length);
  expect(statuses.filter((status) => status !== 502)).toEqual(Array(20 - failed).fill(201));
});
