import { formatPageBuilds, SG_BUILDS_HEADER } from '@special-gift/shared/builds';
import { formatPageIntegrity } from '@special-gift/shared/composition';
import { readCookie } from '@special-gift/shared/xsrf';
import type { Request, RequestHandler } from 'express';
import { isTokenLive, OPERATOR_TOKEN_ID } from '../access';
import type { Database } from '../db/database';
import { ApiError } from '../http/api-error';
import { findServableIntegrity, type BuildIntegrity } from './build-registry';
import { readPointers, type PointerRow } from './pointer-store';
import { PREVIEW_COOKIE, verifyPreview, type Preview } from './preview-cookie';
import { invalid } from './request';

export const BUCKET_COOKIE = 'sg_bucket';
/** A release shows on new pages within 2 s: this memo, plus at most 1 s the host's nginx caches the snapshot (it counts whole seconds: an entry expires at the next second boundary after 1 s at the latest). */
export const POINTER_MEMO_MS = 100;

/** Pointer rows of one environment, read at most every {@link POINTER_MEMO_MS} per process, concurrent readers sharing one query. */
export class PointerMemo {
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

  /** The `Sg-Builds` a page of this bucket gets now, as the snapshot answers it (a preview aside). */
  async servedBuilds(bucket: number): Promise<string> {
    return formatPageBuilds(servedForBucket(await this.read(), bucket).builds);
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

export interface SnapshotOptions {
  readonly db: Database;
  readonly memo: PointerMemo;
  readonly environment: string;
  readonly operatorToken: string | undefined;
  readonly now: () => number;
}

/** The preview the request's cookie names, if it is valid and the token that started it still is. */
async function livePreview(
  req: Request,
  { db, operatorToken, environment, now }: SnapshotOptions,
): Promise<Preview | null> {
  const cookie = readCookie(req.headers.cookie ?? '', PREVIEW_COOKIE);
  const preview = operatorToken && cookie ? verifyPreview(operatorToken, environment, cookie, now()) : null;
  if (!preview) return null;
  return preview.tokenId === OPERATOR_TOKEN_ID || (await isTokenLive(db, preview.tokenId)) ? preview : null;
}

/** `GET /v1/releases/snapshot`: the per-page snapshot the host's composer embeds (docs/releases.md). */
export function snapshotHandler(options: SnapshotOptions): RequestHandler {
  const { db, memo, environment } = options;
  return async (req, res) => {
    const bucket = bucketOf(req);
    let builds: Record<string, string>;
    let integrity: Record<string, BuildIntegrity>;
    let previewed = false;
    try {
      const rows = await memo.read();
      ({ builds, integrity } = servedForBucket(rows, bucket));
      const preview = await livePreview(req, options);
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
      [SG_BUILDS_HEADER]: formatPageBuilds(builds),
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
}
