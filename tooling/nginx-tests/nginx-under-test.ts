/**
 * For tests that run an image's nginx config with Debian's nginx (rendered as the image renders it,
 * by its own start-up script) against upstreams named through a small DNS server here, as a compose
 * network's or a cluster's names are.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../serve/local-topology';
import { hostEnvironment, renderTemplate, runEntrypoint } from '../serve/runtime-config';
import { PAGE_SCRIPT_HASH_FILE, PAGE_TEMPLATE_FILE, pageScriptHash, toPageTemplate } from '../composition/composition';

/**
 * A DNS server answering A questions with `addressesOf(name)` (read at each question, so a test can
 * make a name appear); a name without addresses is NXDOMAIN.
 */
export function startDnsServer(addressesOf: (name: string) => readonly string[]): Promise<Socket> {
  const socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    // Header (12 bytes), then the question: labels ending in a zero byte, then type and class.
    let end = 12;
    while (query[end] !== 0) end += (query[end] ?? 0) + 1;
    const question = query.subarray(12, end + 5);
    const labels: string[] = [];
    for (let at = 12; at < end; at += (query[at] ?? 0) + 1)
      labels.push(query.subarray(at + 1, at + 1 + (query[at] ?? 0)).toString());
    const isA = question.readUInt16BE(question.length - 4) === 1;
    const answers = isA ? addressesOf(labels.join('.')) : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // the id
    header.writeUInt16BE(answers.length > 0 ? 0x8180 : 0x8183, 2); // a response; NXDOMAIN without answers
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

/** `127.0.0.1:<port>` of a DNS server, for NGINX_RESOLVER. */
export const resolverOf = (dns: Socket) => `127.0.0.1:${(dns.address() as AddressInfo).port}`;

export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createTcpServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** Debian's njs module (libnginx-mod-http-js); the image loads it as modules/ngx_http_js_module.so. */
export const NJS_MODULE = '/usr/lib/nginx/modules/ngx_http_js_module.so';
/** The environment deploy/nginx/nginx.conf keeps for nginx's workers (`env`). */
export const NGINX_ENV = ['PAGE_TOKEN_KEY'] as const;
const pick = (env: Record<string, string>, names: readonly string[]) =>
  Object.fromEntries(names.filter((name) => env[name] !== undefined).map((name) => [name, env[name]]));

export interface RunningNginx {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The prefix folder: `www` (STATIC_ROOT), `tmp`, `logs`. */
  readonly prefix: string;
  stop(): void;
}

/**
 * Starts nginx with `deploy/nginx/<template>` rendered from `env` through the start-up script (PORT
 * and STATIC_ROOT are set here), inside an `http` block with the mime types as the image's own
 * nginx.conf has them (SSI composes text/html only), and waits until `readyPath` answers (any status).
 */
export async function startNginx(options: {
  template: 'host.conf.template' | 'remote.conf.template';
  env: (prefix: string) => Record<string, string>;
  readyPath: string;
}): Promise<RunningNginx> {
  const prefix = mkdtempSync(join(tmpdir(), 'sg-nginx-test-'));
  for (const dir of ['www', 'conf.d', 'logs', 'tmp']) mkdirSync(join(prefix, dir));
  cpSync(join(REPO_ROOT, 'deploy', 'nginx', 'snippets'), join(prefix, 'snippets'), { recursive: true });
  cpSync(join(REPO_ROOT, 'deploy', 'nginx', 'njs'), join(prefix, 'njs'), { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = runEntrypoint({ ...options.env(prefix), PORT: String(port), STATIC_ROOT: join(prefix, 'www') });
  const template = readFileSync(join(REPO_ROOT, 'deploy', 'nginx', options.template), 'utf8');
  writeFileSync(join(prefix, 'conf.d', 'app.conf'), renderTemplate(template, env));
  const temp = (name: string) => `${name}_temp_path ${join(prefix, 'tmp', name)};`;
  writeFileSync(
    join(prefix, 'nginx.conf'),
    // As deploy/nginx/nginx.conf: njs, and the only variables of the environment nginx's workers keep.
    `${process.getuid?.() === 0 ? 'user root;' : ''} daemon off; worker_processes 1; pid ${join(prefix, 'logs', 'nginx.pid')};
     load_module ${NJS_MODULE}; ${NGINX_ENV.map((name) => `env ${name};`).join(' ')}
     events { worker_connections 64; }
     http { include /etc/nginx/mime.types; default_type application/octet-stream; access_log off; ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}
       include conf.d/app.conf; }`,
  );
  const errorLog = join(prefix, 'logs', 'error.log');
  // nginx.conf's `env` names what nginx passes on: the key reaches njs this way only, as in the image.
  const nginx: ChildProcess = spawn('nginx', ['-p', `${prefix}/`, '-c', 'nginx.conf', '-e', errorLog], {
    stdio: 'inherit',
    env: { PATH: process.env.PATH ?? '', ...pick(env, NGINX_ENV) },
  });
  const stop = () => {
    nginx.kill('SIGTERM');
    rmSync(prefix, { recursive: true, force: true });
  };
  for (let started = Date.now(); ;) {
    const up = await fetch(`${url}${options.readyPath}`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() - started > 10_000 || nginx.exitCode !== null) {
      const log = readFileSync(errorLog, 'utf8');
      stop();
      throw new Error(`nginx did not start: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, prefix, stop };
}

/** A host build's page template in `www`, as the host's build writes it: page.shtml and its script's hash. */
export function writePageTemplate(www: string): void {
  const template = toPageTemplate(
    '<!doctype html><html lang=en dir=ltr><head><title>x</title><script defer src=/main.abc.js></script></head><body><div id=root></div></body></html>',
    1,
    '/page-loader.1.js',
  );
  writeFileSync(join(www, PAGE_TEMPLATE_FILE), template);
  writeFileSync(join(www, PAGE_SCRIPT_HASH_FILE), `${pageScriptHash(template)}\n`);
}

/**
 * The host's template with the API at `apiPort`, remotes nowhere (port 1), names through `dns` and
 * a sign-up limit no test reaches; `page` writes the web root's page (index.html or page.shtml);
 * `more`: further settings of the host's image (e.g. REAL_IP_FROM).
 */
export function startHostNginx(
  apiPort: number,
  dns: Socket,
  page: (www: string) => void,
  more: Readonly<Record<string, string>> = {},
): Promise<RunningNginx> {
  return startNginx({
    template: 'host.conf.template',
    env: (prefix) => {
      page(join(prefix, 'www'));
      return {
        ...hostEnvironment({
          apiUpstream: `http://127.0.0.1:${apiPort}`,
          remoteEntry: (name) => `http://127.0.0.1:1/${name}/remoteEntry.js`,
        }),
        FRAGMENT_CACHE_DIR: join(prefix, 'tmp', 'fragments'),
        NGINX_RESOLVER: resolverOf(dns),
        SIGN_UP_RATE_PER_MINUTE: '600',
        ...more,
      };
    },
    readyPath: '/config.json',
  });
}
