import { formatPageIntegrity, SRI_PATTERN } from '@special-gift/shared/composition';
import { readCookie } from '@special-gift/shared/xsrf';
import { Router, type Request, type RequestHandler } from 'express';
import type { Database } from '../db/database';
import {
  applyAction,
  findServableBuild,
  findServableIntegrity,
  purgeBuilds,
  readPointers,
  readRemoteState,
  registerBuild,
  RELEASE_ACTIONS,
  type BuildIntegrity,
  type PointerRow,
  type ReleaseAction,
} from '../db/release-repository';
import { ApiError } from '../http/api-error';
import { isJsonObject, parseJsonBody, requireJsonContentType } from '../http/json-body';
import { methodNotAllowed } from '../http/method-not-allowed';
import {
  PREVIEW_COOKIE,
  PREVIEW_MAX_AGE_SECONDS,
  previewKey,
  requireOperator,
  signPreview,
  verifyPreview,
} from '../http/operator-auth';
import { PREVIEW_PAGE_HTML, PREVIEW_PAGE_SCRIPT } from './release-preview-page';

/** The API never imports tooling (lint): the same rule as tooling/remotes.json's names, checked here on its own. */
const REMOTE_NAME = /^[a-z][a-z0-9-]{0,31}$/;
const BUILD_ID = /^[0-9a-f]{12}$/;
export const BUCKET_COOKIE = 'sg_bucket';
/** A release shows on new pages within 2 s: this memo, plus at most 1 s the host's nginx caches the snapshot (it counts whole seconds: an entry expires at the next second boundary after 1 s at the latest). */
export const POINTER_MEMO_MS = 100;
const HISTORY_LIMIT = 50;

export interface ReleaseRouteOptions {
  readonly operatorToken: string | undefined;
  readonly environment: string;
  readonly cookieSecure: boolean;
  /** Seconds since the epoch; tests move it. */
  readonly now?: () => number;
}

const invalid = (message: string) => new ApiError(422, 'invalid_release_request', message);

function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function readString(
  body: Record<string, unknown>,
  name: string,
  { pattern, max = 200, optional = false }: { pattern?: RegExp; max?: number; optional?: boolean } = {},
): string | undefined {
  const value = body[name];
  if (value === undefined && optional) return undefined;
  // No control characters: these end up in a terminal (the history table) and in logs.
  if (typeof value !== 'string' || value.length > max || hasControlCharacter(value))
    throw invalid(`\`${name}\` must be a string of at most ${max} characters, without control characters.`);
  if (pattern && !pattern.test(value)) throw invalid(`\`${name}\` is not valid: ${JSON.stringify(value)}.`);
  return value;
}

function readInteger(
  body: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  optional = false,
): number | undefined {
  const value = body[name];
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)
    throw invalid(`\`${name}\` must be an integer from ${min} to ${max}.`);
  return value;
}

function jsonObject(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (!isJsonObject(body)) throw new ApiError(400, 'invalid_body', 'The request body must be a JSON object.');
  return body;
}

function remoteParam(req: Request): string {
  const remote = req.params.remote;
  if (typeof remote !== 'string' || !REMOTE_NAME.test(remote))
    throw invalid('The remote must be a name like `signup` (a-z, 0-9, -).');
  return remote;
}

const readActor = (body: Record<string, unknown>) => readString(body, 'actor', { pattern: /\S/, max: 100 }) ?? '';

/** Pointer rows of one environment, read at most every {@link POINTER_MEMO_MS} per process, concurrent readers sharing one query. */
class PointerMemo {
  private cached: { readonly at: number; readonly rows: Promise<PointerRow[]> } | undefined;
  constructor(
    private readonly db: Database,
    private readonly environment: string,
  ) {}

  read(): Promise<PointerRow[]> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < POINTER_MEMO_MS) return this.cached.rows;
    const rows = readPointers(this.db, this.environment);
    const entry = { at: now, rows };
    this.cached = entry;
    // A failure is not remembered: the next request asks the database again.
    rows.catch(() => {
      if (this.cached === entry) this.cached = undefined;
    });
    return rows;
  }

  /** After a write in this process; other replicas see it when their memo expires. */
  forget(): void {
    this.cached = undefined;
  }
}

/**
 * The build each remote serves for a bucket, by remote (sorted): the canary below its percentage,
 * the live build otherwise; and the integrity recorded for that same build.
 */
export function servedForBucket(
  rows: readonly PointerRow[],
  bucket: number,
): { builds: Record<string, string>; integrity: Record<string, BuildIntegrity> } {
  const builds: Record<string, string> = {};
  const integrity: Record<string, BuildIntegrity> = {};
  for (const row of [...rows].sort((a, b) => (a.remote < b.remote ? -1 : a.remote > b.remote ? 1 : 0))) {
    const canary = row.canary !== null && bucket < row.canaryPercent ? row.canary : null;
    builds[row.remote] = canary ?? row.live;
    integrity[row.remote] = canary !== null ? row.canaryIntegrity : row.liveIntegrity;
  }
  return { builds, integrity };
}

const BUILD_PATH = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/** The `integrity` of a registration: the SRI value of each file a browser may load, `remoteEntry.js` among them. */
function readIntegrity(body: Record<string, unknown>): Record<string, string> {
  const value = body.integrity;
  const message =
    '`integrity` must map each file a browser may load (relative path, `remoteEntry.js` among them, at most ' +
    '10000) to its sha384 SRI value (`sha384-` and 64 base64 characters).';
  if (!isJsonObject(value)) throw invalid(message);
  const entries = Object.entries(value);
  if (entries.length > 10_000 || !('remoteEntry.js' in value)) throw invalid(message);
  for (const [path, sri] of entries)
    if (
      path.length > 300 ||
      !BUILD_PATH.test(path) ||
      path.split('/').includes('..') ||
      typeof sri !== 'string' ||
      !SRI_PATTERN.test(sri)
    )
      throw invalid(message);
  return value as Record<string, string>;
}

/** `Sg-Builds`: `remote=build` pairs sorted by remote, comma-separated; empty when no remote has a pointer. */
export function sgBuildsHeader(builds: Readonly<Record<string, string>>): string {
  return Object.keys(builds)
    .sort()
    .map((remote) => `${remote}=${builds[remote]}`)
    .join(',');
}

function bucketOf(req: Request): number {
  const query = req.query.bucket;
  if (query !== undefined) {
    if (typeof query !== 'string' || !/^[0-9]{1,2}$/.test(query))
      throw invalid('`bucket` must be an integer from 0 to 99.');
    return Number(query);
  }
  const cookie = readCookie(req.headers.cookie ?? '', BUCKET_COOKIE);
  // No (valid) bucket: not in any canary, the last bucket of all.
  return cookie !== null && /^[0-9]{1,2}$/.test(cookie) ? Number(cookie) : 99;
}

/**
 * Releases (docs/releases.md): the public per-page snapshot the host's composer embeds, and the
 * operator endpoints the release tool calls with the operator token.
 */
export function releaseRoutes(
  db: Database,
  { operatorToken, environment, cookieSecure, now = () => Math.floor(Date.now() / 1000) }: ReleaseRouteOptions,
): Router {
  const router = Router();
  const operator = requireOperator(operatorToken);
  const key = operatorToken === undefined ? undefined : previewKey(operatorToken);
  const memo = new PointerMemo(db, environment);
  const json = [requireJsonContentType, parseJsonBody];

  const snapshot: RequestHandler = async (req, res) => {
    const bucket = bucketOf(req);
    let builds: Record<string, string>;
    let integrity: Record<string, BuildIntegrity>;
    let previewed = false;
    try {
      const rows = await memo.read();
      ({ builds, integrity } = servedForBucket(rows, bucket));
      const cookie = readCookie(req.headers.cookie ?? '', PREVIEW_COOKIE);
      const preview = key && cookie ? verifyPreview(key, cookie, now()) : null;
      const previewIntegrity = preview ? await findServableIntegrity(db, preview.remote, preview.buildId) : undefined;
      if (preview && previewIntegrity !== undefined) {
        builds = { ...builds, [preview.remote]: preview.buildId };
        builds = Object.fromEntries(Object.entries(builds).sort(([a], [b]) => (a < b ? -1 : 1)));
        integrity = { ...integrity, [preview.remote]: previewIntegrity };
        previewed = true;
      }
    } catch {
      // Any database trouble: the composer then serves its last cached snapshot, or none.
      throw new ApiError(503, 'not_ready', 'The release pointers cannot be read right now.');
    }
    const pageIntegrity = formatPageIntegrity(integrity);
    res.set({
      'Sg-Builds': sgBuildsHeader(builds),
      // What the host loads by URL from those builds (entries, texts), with the hashes recorded at
      // publish; a build recorded without them is absent, and the host refuses its code.
      'Sg-Integrity': pageIntegrity,
      // A preview is one operator's: never cached where another page could get it.
      'Cache-Control': previewed ? 'private, no-store' : 'public, max-age=1',
      // The answer depends on sg_bucket and sg_preview when there is no `bucket` query.
      Vary: 'Cookie',
    });
    res.json({ environment, builds, integrity: pageIntegrity });
  };
  router
    .route('/v1/releases/snapshot')
    .get(snapshot)
    .all(methodNotAllowed(['GET', 'HEAD']));

  router
    .route('/v1/releases/builds')
    .post(operator, ...json, async (req, res) => {
      const body = jsonObject(req);
      const build = {
        remote: readString(body, 'remote', { pattern: REMOTE_NAME }) ?? '',
        buildId: readString(body, 'buildId', { pattern: BUILD_ID }) ?? '',
        contractMajor: readInteger(body, 'contractMajor', 0, 1_000_000) ?? 0,
        files: readInteger(body, 'files', 1, 1_000_000) ?? 0,
        bytes: readInteger(body, 'bytes', 0, Number.MAX_SAFE_INTEGER) ?? 0,
        publishedBy: readActor(body),
        integrity: readIntegrity(body),
      };
      const outcome = await registerBuild(db, build);
      if (outcome.kind === 'different') {
        throw new ApiError(
          409,
          'build_conflict',
          `Build ${build.buildId} of ${build.remote} is already registered with other metadata ` +
            `(contract major ${outcome.build.contractMajor}, ${outcome.build.files} files, ${outcome.build.bytes} bytes).`,
        );
      }
      res.status(outcome.kind === 'created' ? 201 : 200).json({ build: outcome.build });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/v1/releases/remotes/:remote')
    .get(operator, async (req, res) => {
      const remote = remoteParam(req);
      const limit = req.query.limit;
      if (
        limit !== undefined &&
        (typeof limit !== 'string' || !/^[0-9]{1,4}$/.test(limit) || Number(limit) < 1 || Number(limit) > 1000)
      )
        throw invalid('`limit` must be an integer from 1 to 1000.');
      const state = await readRemoteState(db, environment, remote, limit === undefined ? HISTORY_LIMIT : Number(limit));
      res.json({ environment, remote, ...state });
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  router
    .route('/v1/releases/remotes/:remote/actions')
    .post(operator, ...json, async (req, res) => {
      const remote = remoteParam(req);
      const body = jsonObject(req);
      const action = readString(body, 'action') as ReleaseAction;
      if (!RELEASE_ACTIONS.includes(action)) throw invalid(`\`action\` must be one of ${RELEASE_ACTIONS.join(', ')}.`);
      const needsBuild = action === 'release' || action === 'canary';
      const buildId = readString(body, 'buildId', { pattern: BUILD_ID, optional: !needsBuild });
      if (buildId !== undefined && !needsBuild && action !== 'rollback')
        throw invalid(`\`${action}\` takes no \`buildId\`.`);
      const percent = readInteger(body, 'percent', 1, 100, action !== 'canary');
      if (percent !== undefined && action !== 'canary') throw invalid('Only `canary` takes a `percent`.');
      const input = {
        action,
        buildId,
        percent,
        expectedRevision: readInteger(body, 'expectedRevision', 0, 2_000_000_000) ?? 0,
        actor: readActor(body),
        reason: readString(body, 'reason', { max: 500, optional: true }) ?? '',
      };
      const outcome = await applyAction(db, environment, remote, input);
      if ('ok' in outcome) {
        memo.forget();
        res.json({ environment, remote, pointer: outcome.pointer, revision: outcome.revision });
        return;
      }
      switch (outcome.kind) {
        case 'conflict':
          throw new ApiError(
            409,
            'release_conflict',
            `The ${remote} pointer is at revision ${outcome.current}, not ${input.expectedRevision} as expected: ` +
              'someone else changed it meanwhile. Check `history` and retry.',
          );
        case 'unknown_build':
          throw new ApiError(
            404,
            'unknown_build',
            `Build ${outcome.buildId} of ${remote} is not published, or was purged: publish it first.`,
          );
        case 'refused':
          throw new ApiError(409, 'release_refused', outcome.message);
      }
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/v1/releases/remotes/:remote/purge')
    .post(operator, ...json, async (req, res) => {
      const remote = remoteParam(req);
      const body = jsonObject(req);
      const ids = body.buildIds;
      if (
        !Array.isArray(ids) ||
        ids.length === 0 ||
        ids.length > 1000 ||
        !ids.every((id) => typeof id === 'string' && BUILD_ID.test(id))
      )
        throw invalid('`buildIds` must be a list of 1 to 1000 build ids (12 hex characters).');
      const outcome = await purgeBuilds(db, remote, ids as string[]);
      if ('ok' in outcome) return void res.json({ remote, purged: outcome.purged });
      if (outcome.kind === 'unknown_build')
        throw new ApiError(404, 'unknown_build', `Build ${outcome.buildId} of ${remote} was never published.`);
      throw new ApiError(
        409,
        'release_refused',
        `Not purged: ${outcome.buildIds.join(', ')} ${outcome.buildIds.length === 1 ? 'is' : 'are'} live or in canary.`,
      );
    })
    .all(methodNotAllowed(['POST']));

  // The preview: the operator's own browser gets one remote's build, whatever the pointers say. A
  // third-party page cannot turn it on in someone's browser: the POST needs the operator token as an
  // Authorization header, which a cross-origin page cannot send without a CORS grant (this API gives
  // none), and the origin check refuses a cross-site POST before it gets here. The cookie is
  // HttpOnly and SameSite=Strict, and signed with a key derived from the token.
  router
    .route('/v1/releases/preview')
    .get((_req, res) => {
      res.set({
        'Content-Security-Policy':
          "default-src 'none'; script-src 'self'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
        'Content-Type': 'text/html; charset=utf-8',
      });
      res.send(PREVIEW_PAGE_HTML);
    })
    .post(operator, ...json, async (req, res) => {
      const body = jsonObject(req);
      const remote = readString(body, 'remote', { pattern: REMOTE_NAME }) ?? '';
      const buildId = readString(body, 'buildId', { pattern: BUILD_ID }) ?? '';
      if (!(await findServableBuild(db, remote, buildId)))
        throw new ApiError(404, 'unknown_build', `Build ${buildId} of ${remote} is not published, or was purged.`);
      const expiresAt = now() + PREVIEW_MAX_AGE_SECONDS;
      // `operator` has passed, so the key exists.
      res.cookie(PREVIEW_COOKIE, signPreview(key ?? Buffer.alloc(0), { remote, buildId, expiresAt }), {
        httpOnly: true,
        sameSite: 'strict',
        secure: cookieSecure,
        path: '/',
        maxAge: PREVIEW_MAX_AGE_SECONDS * 1000,
        encode: (value) => value,
      });
      res.json({ remote, buildId, expiresAt: new Date(expiresAt * 1000).toISOString() });
    })
    // Ending a preview needs no token: it only ever returns the browser to what everyone gets.
    .delete((_req, res) => {
      res.clearCookie(PREVIEW_COOKIE, { httpOnly: true, sameSite: 'strict', secure: cookieSecure, path: '/' });
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'POST', 'DELETE']));

  router
    .route('/v1/releases/preview.js')
    .get((_req, res) => {
      res.type('text/javascript; charset=utf-8').send(PREVIEW_PAGE_SCRIPT);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  return router;
}
