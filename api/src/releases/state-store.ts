import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { IMMUTABLE, parseS3Location, s3ClientConfig, type S3Location } from '@special-gift/shared/builds';

/**
 * Where the release state is written (docs/releases.md, "Release state"): the build store's
 * `_state/` folder, which the composers read. Keys are the shared module's (`stateKeys`), relative
 * to the store's root.
 */
export interface StateStore {
  /** For messages and `GET /v1/releases/state`: a folder or `s3://bucket/prefix`. */
  readonly location: string;
  /**
   * Writes `body` at `key`. `immutable`: a state object, never rewritten with other bytes (a
   * second write of the same bytes is harmless); otherwise `current.json`, which a CDN must
   * revalidate. Resolves once the object is durable in the store.
   */
  put(key: string, body: string, options: { readonly immutable: boolean }): Promise<void>;
  /** The object's text, or null if there is none. */
  get(key: string): Promise<string | null>;
}

/**
 * The folder store of `npm run up` and the suite (`.data/builds`): each object written to a
 * temporary file beside it, flushed, then renamed over, so a reader sees the old object or the new,
 * never half of one, and a crash leaves no torn file.
 */
export class DirectoryStateStore implements StateStore {
  constructor(readonly location: string) {}

  // async: a failure rejects, as the S3 store's does.
  async put(key: string, body: string): Promise<void> {
    const target = this.pathOf(key);
    const folder = path.dirname(target);
    mkdirSync(folder, { recursive: true });
    const temporary = path.join(folder, `.tmp-${randomBytes(6).toString('hex')}`);
    try {
      const fd = openSync(temporary, 'w');
      try {
        writeSync(fd, body);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, target);
      // The rename itself is durable once the folder is flushed.
      const dir = openSync(folder, 'r');
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    } finally {
      rmSync(temporary, { force: true });
    }
  }

  async get(key: string): Promise<string | null> {
    try {
      return readFileSync(this.pathOf(key), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Keys come from `stateKeys` only; this refuses anything that would leave the folder anyway. */
  private pathOf(key: string): string {
    const resolved = path.resolve(this.location, ...key.split('/'));
    if (!resolved.startsWith(path.resolve(this.location) + path.sep)) throw new Error(`"${key}" is not in the store.`);
    return resolved;
  }
}

/**
 * The object store of the images (`RELEASE_STATE_STORE=s3://bucket/prefix`, the build store's
 * bucket): the AWS SDK with the standard settings (`s3ClientConfig`). A state object is sent with a
 * year's immutable cache, `current.json` with `no-cache`, so a CDN in front revalidates it. A PUT is
 * atomic: a reader gets the old object or the new.
 */
export class S3StateStore implements StateStore {
  readonly location: string;

  constructor(
    private readonly where: S3Location,
    private readonly client: S3Client = new S3Client(s3ClientConfig(process.env)),
  ) {
    this.location = `s3://${where.bucket}${where.prefix ? `/${where.prefix}` : ''}`;
  }

  async put(key: string, body: string, { immutable }: { readonly immutable: boolean }): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.where.bucket,
        Key: this.keyOf(key),
        Body: body,
        ContentType: 'application/json; charset=utf-8',
        CacheControl: immutable ? IMMUTABLE : 'no-cache',
      }),
    );
  }

  async get(key: string): Promise<string | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.where.bucket, Key: this.keyOf(key) }));
      return (await answer.Body?.transformToString('utf-8')) ?? '';
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404 || (error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  private keyOf(key: string): string {
    return this.where.prefix ? `${this.where.prefix}/${key}` : key;
  }
}

/** The store a `RELEASE_STATE_STORE` value names: `s3://bucket/prefix`, else an absolute folder. */
export function openStateStore(location: string): StateStore {
  const s3 = parseS3Location(location);
  return s3 ? new S3StateStore(s3) : new DirectoryStateStore(location);
}
