import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PAGE_BUILDS_PATTERN, parsePageBuilds, SG_BUILDS_HEADER } from '@special-gift/shared/builds';
import { readCookie } from '@special-gift/shared/xsrf';
import { createPageTokenSigner, type PageTokenSigner } from '../composition/page-token-signer';
import {
  createReleaseStateSource,
  httpReader,
  type ReleaseStateSource,
  type StoreReader,
} from '../composition/release-state-source';
import { stateKeys } from '@special-gift/shared/release-state';
import { keptStateReader } from './kept-state';
import type { StateAgentSettings } from './settings';

/**
 * The state agent (docs/releases.md, "The state agent"): beside the host's nginx, it answers the
 * page's snapshot (`/_sg_snapshot`) with the API's wire semantics, from the release state in the
 * build store (release-state-source.ts). It also keeps the API's page-token endpoint, signing
 * itself (page-token-signer.ts, `npm run up`'s code), though the images' nginx now mints its pages'
 * tokens with njs (docs/telemetry.md) and no longer asks it.
 * The store is read in the background; a page never waits on it, nor on the API.
 */

/** The API's paths, so nginx's locations only change their upstream. */
export const SNAPSHOT_PATH = '/v1/releases/snapshot';
export const PAGE_TOKEN_PATH = '/v1/telemetry/page-token';
/** The API's header that says why no token was issued (api/src/telemetry/routes.ts). */
export const PAGE_TOKEN_REFUSED_HEADER = 'sg-page-token-refused';
const BUCKET_COOKIE = 'sg_bucket';
const BUCKET = /^[0-9]{1,2}$/;

export interface StateAgentOptions {
  readonly source: ReleaseStateSource;
  readonly signPageToken: PageTokenSigner;
  readonly environment: string;
  /** Whether a first read of the store was attempted (readiness). */
  readonly attempted: () => boolean;
  /** What /health says is wrong (default: the source's refusal or failure). */
  readonly problem?: () => string | undefined;
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body?: string): void {
  res.writeHead(status, body === undefined ? headers : { ...headers, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

const json = (res: ServerResponse, status: number, value: unknown, cacheControl = 'no-store') =>
  send(
    res,
    status,
    { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': cacheControl },
    JSON.stringify(value),
  );

/** The API's error shape (api/openapi.yaml). */
const apiError = (res: ServerResponse, status: number, code: string, message: string) =>
  json(res, status, { error: { code, message } });

/** The API's refusal of a page token: 204, no body, whatever the reason. */
const refuseToken = (res: ServerResponse, reason: string) =>
  send(res, 204, { 'Cache-Control': 'no-store', [PAGE_TOKEN_REFUSED_HEADER]: reason });

/** The visitor's address as nginx names it (X-Forwarded-For: $remote_addr), else the peer's. */
function clientOf(req: IncomingMessage): string | undefined {
  const forwarded = req.headers['x-forwarded-for'];
  const last = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',').pop()?.trim();
  return last || req.socket.remoteAddress;
}

export function stateAgentHandler({
  source,
  signPageToken,
  environment,
  attempted,
  problem: problemNow = () => source.status().problem,
}: StateAgentOptions) {
  /** As the API's snapshot: the query's bucket, else the cookie's, else 99 (in no canary). */
  function snapshotBucket(url: URL, req: IncomingMessage): number | undefined {
    const query = url.searchParams.get('bucket');
    if (query !== null) return BUCKET.test(query) ? Number(query) : undefined;
    const cookie = readCookie(req.headers.cookie ?? '', BUCKET_COOKIE);
    return cookie !== null && BUCKET.test(cookie) ? Number(cookie) : 99;
  }

  async function snapshot(url: URL, req: IncomingMessage, res: ServerResponse) {
    const bucket = snapshotBucket(url, req);
    if (bucket === undefined)
      return apiError(res, 422, 'invalid_release_request', '`bucket` must be an integer from 0 to 99.');
    const selection = await source.forBucket(bucket);
    if (!selection) {
      // Never read a state (the store down since the start): nginx keeps its stale copy if it has
      // one (proxy_cache_use_stale), else composes with image builds, as without a snapshot.
      if (source.status().problem !== undefined)
        return apiError(res, 503, 'not_ready', 'The release state cannot be read right now.');
      // Nothing released: every remote's image build.
      return send(res, 204, { 'Cache-Control': 'public, max-age=1' });
    }
    res.setHeader(SG_BUILDS_HEADER, selection.builds);
    res.setHeader('Sg-Integrity', selection.integrity);
    res.setHeader('Vary', 'Cookie');
    json(
      res,
      200,
      { environment, builds: parsePageBuilds(selection.builds), integrity: selection.integrity },
      'public, max-age=1',
    );
  }

  async function pageToken(url: URL, req: IncomingMessage, res: ServerResponse) {
    const bucket = url.searchParams.get('bucket');
    if (bucket === null || !/^([0-9]|[1-9][0-9])$/.test(bucket)) return refuseToken(res, 'bad_bucket');
    const header = req.headers[SG_BUILDS_HEADER.toLowerCase()];
    const builds = typeof header === 'string' ? header : '';
    if (!PAGE_BUILDS_PATTERN.test(builds)) return refuseToken(res, 'bad_builds');
    // Only for the builds a page of this bucket gets now, as the API's endpoint.
    const served = (await source.forBucket(Number(bucket)))?.builds ?? '';
    if (served !== builds) return refuseToken(res, 'builds_not_served');
    const token = signPageToken(Number(bucket), builds, clientOf(req));
    if (token === undefined) return refuseToken(res, 'not_issued');
    send(res, 200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }, token);
  }

  function health(res: ServerResponse, readiness: boolean) {
    const ready = attempted();
    const { serial, acceptedAt } = source.status();
    const problem = problemNow();
    json(res, readiness && !ready ? 503 : 200, {
      status: ready ? 'ready' : 'starting',
      environment,
      serial: serial ?? null,
      acceptedAt: acceptedAt === undefined ? null : new Date(acceptedAt).toISOString(),
      problem: problem ?? null,
    });
  }

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://agent');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return apiError(res, 405, 'method_not_allowed', 'Only GET is served here.');
    try {
      if (url.pathname === SNAPSHOT_PATH) return await snapshot(url, req, res);
      if (url.pathname === PAGE_TOKEN_PATH) return await pageToken(url, req, res);
      if (url.pathname === '/health') return health(res, false);
      if (url.pathname === '/ready') return health(res, true);
      apiError(res, 404, 'not_found', 'No such path.');
    } catch {
      if (url.pathname === PAGE_TOKEN_PATH) return refuseToken(res, 'not_ready');
      apiError(res, 503, 'not_ready', 'The release state cannot be read right now.');
    }
  };
}

export interface RunningStateAgent {
  readonly server: Server;
  readonly url: string;
  readonly source: ReleaseStateSource;
  /** What /health says is wrong: the source's refusal, or the store's failure while a kept state serves. */
  problem(): string | undefined;
  stop(): Promise<void>;
}

/**
 * Starts the agent: one read of the store first (so the first page finds a state if the store has
 * one), then a read every `refreshMs` in the background, and the server.
 */
export async function startStateAgent(
  settings: StateAgentSettings,
  read: StoreReader = httpReader(settings.storeBase),
): Promise<RunningStateAgent> {
  const kept = settings.keptStateFile ? keptStateReader(read, settings.keptStateFile) : undefined;
  // Pages never trigger a read: only the timer does (refreshMs here is "never by a page").
  const source = createReleaseStateSource({
    read: kept?.read ?? read,
    environment: settings.environment,
    keys: settings.stateKeys,
    refreshMs: Number.POSITIVE_INFINITY,
  });
  const signPageToken = createPageTokenSigner({
    keys: settings.pageTokenKeys,
    environment: settings.environment,
    perMinute: settings.pageTokensPerMinute,
  });
  kept?.attach(source);
  const currentKey = stateKeys(settings.environment).current;
  let keptSerial: number | undefined;
  /** One read of the store; a newly accepted state is kept in the file, if there is one. */
  const refresh = async () => {
    await source.refresh();
    const { serial, problem } = source.status();
    if (kept && serial !== undefined && serial !== keptSerial && problem === undefined) {
      try {
        kept.keep(currentKey);
        keptSerial = serial;
      } catch (error) {
        console.error(`state-agent: the state could not be kept in ${settings.keptStateFile}: ${String(error)}`);
      }
    }
  };
  let attempted = false;
  await refresh();
  attempted = true;
  const timer = setInterval(() => void refresh(), settings.refreshMs);
  timer.unref();
  // The source's refusal, else the store's failure while the kept state serves (kept-state.ts).
  const problem = () => source.status().problem ?? kept?.problem();
  const handler = stateAgentHandler({
    source,
    signPageToken,
    environment: settings.environment,
    attempted: () => attempted,
    problem,
  });
  const server = createServer((req, res) => void handler(req, res));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.listenHost, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = settings.listenHost.includes(':') ? `[${settings.listenHost}]` : settings.listenHost;
  return {
    server,
    url: `http://${host}:${port}`,
    source,
    problem,
    stop: () =>
      new Promise<void>((resolve) => {
        clearInterval(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
