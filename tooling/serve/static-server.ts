import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ClientRequest, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiErrorBody } from '@special-gift/shared/api';
import { join } from 'node:path';
import { FALLBACK_LANGUAGE, isLanguage, type Language } from '@special-gift/shared';
import express, { type RequestHandler, type Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { createPageComposer, createScreenFiles, pageBucket } from '../composition/compose-page';
import type { PageTokenSigner } from '../composition/page-token-signer';
import type { ReleaseStateSource } from '../composition/release-state-source';
import {
  COMPOSED_PAGE_CACHE_CONTROL,
  PAGE_TEMPLATE_FILE,
  PAGE_TOKEN,
  pageContentSecurityPolicy,
  pageScriptHash,
  SCREEN_FILES_PREFIX,
} from '../composition/composition';
import type { RemoteName } from '../remotes';
import { refuseOperatorPages } from './operator-pages';

export interface StaticServerOptions {
  /** The built app (`<app>/dist`). */
  root: string;
  port: number;
  host?: string;
  /** Host only: unknown paths serve index.html so deep links load the app. */
  spa?: boolean;
  /** Remotes only: the origin allowed to fetch the container cross-origin. */
  corsOrigin?: string;
  /** Remotes only: the remote's folder of the build store, served under /builds/ (docs/releases.md). */
  builds?: string;
  /** Host only: proxy `/api/*` to the API, stripping `/api`, so the API is same-origin. */
  apiTarget?: string;
  /** Host only: the release state from the build store, so a page's builds need no API (a preview's still do). */
  releaseState?: ReleaseStateSource;
  /** Host only: signs each page's token here, so a page costs the API no request. */
  signPageToken?: PageTokenSigner;
  /** Host only: the runtime config served as `/config.json` (see runtime-config.ts). */
  config?: unknown;
}

/** The remotes and default language the page composer needs, from the runtime config served as /config.json. */
function composition(options: StaticServerOptions): { remotes: Record<RemoteName, string>; defaultLanguage: Language } {
  const config = options.config as { remotes?: Record<RemoteName, string>; defaultLanguage?: unknown } | undefined;
  if (!config?.remotes) throw new Error('the host needs its runtime config, with its remotes');
  return {
    remotes: config.remotes,
    defaultLanguage: isLanguage(config.defaultLanguage) ? config.defaultLanguage : FALLBACK_LANGUAGE,
  };
}

/** nginx's `client_max_body_size` for the API (deploy/nginx/snippets/api-proxy.conf). */
const API_BODY_LIMIT_BYTES = 64 * 1024;
// An over-long body is read and discarded for at most this long before the 413 (nginx's lingering close).
const DISCARD_FOR_MS = 5_000;

function sendJsonError(res: ServerResponse, status: number, body: ApiErrorBody): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    Connection: 'close',
  });
  res.end(text);
}

/**
 * Each API request's body, read before it is proxied. Not `req.body`: http-proxy-middleware takes
 * a `req.body` with a reset connection for a body parser's mistake and logs a misleading hint.
 */
const bufferedBodies = new WeakMap<IncomingMessage, Buffer>();

/**
 * Reads a request body for the API, as nginx does, before proxying it: at most 64 KiB, then sent
 * on with its length ({@link writeBufferedBody}). A longer one gets 413 `payload_too_large`
 * once the client has finished sending (or after 5 s), so the client reads the answer instead of
 * finding its upload cut. Streamed to the API instead, a body it refuses (past 16 KiB it answers
 * 413 and closes) broke the upload mid-way and the proxy answered 500.
 */
const bufferApiBody: RequestHandler = (req, res, next) => {
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return next();
  const chunks: Buffer[] = [];
  let size = 0;
  let over = Number(req.headers['content-length']) > API_BODY_LIMIT_BYTES;
  const tooLarge = () => {
    if (res.headersSent) return;
    sendJsonError(res, 413, {
      error: { code: 'payload_too_large', message: 'The request body is larger than 64 KiB.' },
    });
  };
  const discarding = setTimeout(tooLarge, DISCARD_FOR_MS);
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > API_BODY_LIMIT_BYTES) over = true;
    if (!over) chunks.push(chunk);
  });
  req.once('error', () => clearTimeout(discarding));
  req.once('end', () => {
    clearTimeout(discarding);
    if (over) return tooLarge();
    bufferedBodies.set(req, Buffer.concat(chunks));
    next();
  });
};

function writeBufferedBody(proxyReq: ClientRequest, req: IncomingMessage): void {
  const body = bufferedBodies.get(req);
  if (!body) return;
  proxyReq.removeHeader('Transfer-Encoding');
  proxyReq.setHeader('Content-Length', body.length);
  proxyReq.write(body);
}

/**
 * How long a client's idle connection is kept open: nginx's `keepalive_timeout` default, which the
 * images run with, instead of Node's 5 s. A client that reuses an idle connection the server has
 * just closed loses its request unsent (undici: `UND_ERR_SOCKET`), and a client whose loop was held
 * longer than its own idle timer (a synchronous command: e2e's release CLI) does so after 5 s.
 */
export const CLIENT_KEEP_ALIVE_MS = 75_000;

/**
 * The hop-by-hop headers of the API's answer (RFC 9110, 7.6.1), which are about the proxy's own
 * connection to the API: the client's connection to the host stays as it was.
 */
function dropHopByHopHeaders(proxyRes: IncomingMessage): void {
  const named = String(proxyRes.headers.connection ?? '')
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter(Boolean);
  for (const name of ['connection', 'keep-alive', 'proxy-connection', ...named]) delete proxyRes.headers[name];
}

/** The API down or its connection lost: 502 in the API's error shape, or a cut connection once an answer has begun. */
function answerProxyError(_error: Error, _req: IncomingMessage, res: ServerResponse | Socket): void {
  if (!('writeHead' in res)) return void res.destroy();
  if (res.headersSent) return void res.destroy();
  sendJsonError(res, 502, {
    error: { code: 'internal_error', message: 'The API could not be reached. Please try again later.' },
  });
}

/** Files that must be revalidated on every load so a redeploy is picked up at once. */
const REVALIDATE =
  /(^|\/)(index\.html|page\.shtml|mf-manifest\.json|mf-stats\.json|remoteEntry\.js|config\.json|build-info\.json)$|\/assets\/i18n\//;
const HASHED = /\.[0-9a-f]{8}\.(js|css)$/;
/** The offline service worker's script: never cached, so a broken one is replaced on the next check. */
const UNCACHED = /(^|\/)service-worker\.js$/;

/**
 * The images' nginx rules (deploy/nginx/*.conf.template): hashed files immutable, entry files and
 * texts revalidated; the host's other files cached an hour, a remote's other files (nothing the
 * host loads) without caching headers or CORS. e2e/tests/local-serving.spec.ts compares the two.
 */
function servedAs(path: string): 'hashed' | 'revalidate' | 'uncached' | 'other' {
  if (HASHED.test(path)) return 'hashed';
  if (UNCACHED.test(path)) return 'uncached';
  return REVALIDATE.test(path) ? 'revalidate' : 'other';
}

function setHeaders(res: Response, path: string, options: StaticServerOptions) {
  const kind = servedAs(path);
  if (kind === 'hashed') res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  else if (kind === 'revalidate') res.setHeader('Cache-Control', 'no-cache');
  else if (kind === 'uncached') res.setHeader('Cache-Control', 'no-store');
  else if (options.spa) res.setHeader('Cache-Control', 'public, max-age=3600');
  if (options.corsOrigin && (kind === 'hashed' || kind === 'revalidate')) {
    res.setHeader('Access-Control-Allow-Origin', options.corsOrigin);
    res.setHeader('Vary', 'Origin');
  }
}

/**
 * Serves one built app for local use and tests, with the same caching, CORS, SPA and `/api`
 * rules as the production nginx config.
 */
export async function startStaticServer(options: StaticServerOptions): Promise<Server> {
  if (!existsSync(join(options.root, options.spa ? 'index.html' : 'remoteEntry.js'))) {
    throw new Error(`${options.root} has no build: run "npm run build" first`);
  }
  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (options.corsOrigin && req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Origin', options.corsOrigin);
      return void res.sendStatus(204);
    }
    next();
  });
  if (options.apiTarget) {
    app.use('/api', refuseOperatorPages);
    app.use(
      '/api',
      bufferApiBody,
      createProxyMiddleware({
        target: options.apiTarget,
        changeOrigin: false,
        // A connection per request, as the images' nginx makes (no upstream keepalive): a kept one
        // can be closed by the API (its 5 s keep-alive) just as a request is written on it, which
        // is then lost unanswered, and a POST must not be sent twice to make up for it.
        agent: false,
        on: { proxyReq: writeBufferedBody, proxyRes: dropHopByHopHeaders, error: answerProxyError },
      }),
    );
  }
  if (options.config !== undefined) {
    const body = JSON.stringify(options.config);
    app.get('/config.json', (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.type('application/json').send(body);
    });
  }
  if (options.builds) {
    // A published build never changes: every file of one is cached for a year (nginx: remote.conf.template).
    app.use(
      '/builds',
      express.static(options.builds, {
        index: false,
        cacheControl: false,
        setHeaders: (res) => {
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
          if (options.corsOrigin) {
            res.setHeader('Access-Control-Allow-Origin', options.corsOrigin);
            res.setHeader('Vary', 'Origin');
          }
        },
      }),
    );
  }
  app.use(
    express.static(options.root, {
      index: false,
      cacheControl: false,
      setHeaders: (res, path) => setHeaders(res, path, options),
      fallthrough: true,
    }),
  );
  if (options.spa) {
    const screenFile = createScreenFiles(composition(options));
    app.get(new RegExp(`^${SCREEN_FILES_PREFIX}([a-z]+)/(.+)$`), (req, res, next) => {
      const [, remote = '', file = ''] = /^\/[^/]+\/([a-z]+)\/(.+)$/.exec(req.path) ?? [];
      screenFile(remote, file).then((answer) => {
        if (answer.contentType) res.setHeader('Content-Type', answer.contentType);
        if (answer.cacheControl) res.setHeader('Cache-Control', answer.cacheControl);
        res.status(answer.status).end(Buffer.from(answer.body));
      }, next);
    });
    // The template is read per request, as nginx does: a host rebuilt under a running server is served at once.
    // Each origin once, as nginx's REMOTE_ORIGINS (sort -u in 15-runtime-config.envsh).
    const remoteOrigins = [
      ...new Set(Object.values(composition(options).remotes).map((entry) => new URL(entry).origin)),
    ];
    // The last template read: the page's CSP names its script by hash (pageScriptHash).
    let template = '';
    const composePage = createPageComposer({
      template: async () => (template = await readFile(join(options.root, PAGE_TEMPLATE_FILE), 'utf8')),
      ...composition(options),
      apiOrigin: options.apiTarget,
      releaseState: options.releaseState,
      signPageToken: options.signPageToken,
    });
    // A page's token (docs/telemetry.md), which its collector asks for: as nginx's /_sg_page_token.
    app.get(PAGE_TOKEN.path, (req, res, next) => {
      const builds = req.headers[PAGE_TOKEN.buildsHeader];
      composePage
        .pageToken({
          cookieHeader: req.headers.cookie,
          bucket: pageBucket(req.headers.cookie).bucket,
          builds: typeof builds === 'string' ? builds : '',
          clientAddress: req.socket.remoteAddress,
        })
        .then((answer) => {
          res.setHeader('Cache-Control', 'no-store');
          if ('refused' in answer)
            return void res.setHeader(PAGE_TOKEN.refusedHeader, answer.refused).status(204).end();
          res.type('text/plain').send(answer.token);
        }, next);
    });
    // Only page navigations get the app's page; a missing file stays a 404.
    app.get(/^(?!.*\.[a-z0-9]+$).*/i, (req, res, next) => {
      const { bucket, setCookie } = pageBucket(req.headers.cookie);
      composePage({
        path: req.path,
        cookieHeader: req.headers.cookie,
        acceptLanguage: req.headers['accept-language'],
        bucket,
      }).then((page) => {
        if (setCookie) res.setHeader('Set-Cookie', setCookie);
        res.setHeader('Cache-Control', COMPOSED_PAGE_CACHE_CONTROL);
        res.setHeader('Content-Security-Policy', pageContentSecurityPolicy(pageScriptHash(template), remoteOrigins));
        // The page's language follows these request headers (nginx sends the same).
        res.setHeader('Vary', 'Accept-Language, Cookie');
        res.type('html').send(page);
      }, next);
    });
  }
  app.use((_req, res) => void res.status(404).type('text').send('Not found'));

  return await new Promise<Server>((resolve, reject) => {
    const server = app.listen(options.port, options.host ?? '127.0.0.1', () => resolve(server));
    server.keepAliveTimeout = CLIENT_KEEP_ALIVE_MS;
    server.once('error', reject);
  });
}
