import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { IMMUTABLE, s3ClientConfig, type S3Location } from '@special-gift/shared/builds';
import type { BuildContent } from '../build-id';
import { changedWhilePublishing, type BuildStore, type StoredBuild } from './store-interface';
import { Refusal } from '../integrity';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The object that makes a build present: its file list, written after every file. Publish checks
 * it before registering; until then the API never names the build, so no page asks for its files.
 */
export const BUILD_MANIFEST = '.sg-build.json';

export { IMMUTABLE };

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Uploads at once per publish: enough to hide each PUT's latency, few enough for a CI runner. */
const PARALLEL_UPLOADS = 8;

export function openS3BuildStore(location: S3Location, env: Env): S3BuildStore {
  return new S3BuildStore(location, new S3Client(s3ClientConfig(env)));
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}

export class S3BuildStore implements BuildStore {
  readonly location: string;

  constructor(
    private readonly where: S3Location,
    private readonly client: S3Client,
  ) {
    this.location = `s3://${where.bucket}/${where.prefix}`;
  }

  /** `<prefix>/<remote>/<buildId>/`: the id is a hash of every file, so a key always carries the same bytes. */
  buildPrefix(remote: string, buildId: string): string {
    return `${this.where.prefix === '' ? '' : `${this.where.prefix}/`}${remote}/${buildId}/`;
  }

  async put(remote: string, content: BuildContent, dist: string): Promise<StoredBuild> {
    if (await this.isPresent(remote, content.buildId)) return { written: false, files: 0, bytes: 0 };
    const prefix = this.buildPrefix(remote, content.buildId);
    let files = 0;
    let bytes = 0;
    const queue = [...content.files];
    const worker = async () => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        const body = readFileSync(path.join(dist, ...file.path.split('/')));
        // The dist folder may have been rebuilt since its id was computed: store only what the id names.
        if (createHash('sha256').update(body).digest('hex') !== file.sha256) throw changedWhilePublishing(dist);
        if (await this.putOnce(prefix + file.path, body, contentTypeOf(file.path))) {
          files += 1;
          bytes += body.length;
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL_UPLOADS }, worker));
    // Last: from now on the build is present.
    const manifest = Buffer.from(JSON.stringify({ buildId: content.buildId, files: content.files }));
    await this.putOnce(prefix + BUILD_MANIFEST, manifest, 'application/json; charset=utf-8');
    return { written: true, files, bytes };
  }

  /**
   * A conditional put-if-absent (`If-None-Match: *`): AWS S3, R2 and MinIO answer 412 (or 409 to a
   * concurrent one) when the key exists, which is "already there" with the same bytes. A server that
   * ignores the condition (s3rver) overwrites with the same bytes: harmless, because keys are
   * content-addressed. Resolves whether it wrote.
   */
  private async putOnce(key: string, body: Buffer, contentType: string): Promise<boolean> {
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.where.bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          CacheControl: IMMUTABLE,
          IfNoneMatch: '*',
        }),
      );
      return true;
    } catch (error) {
      const status = statusOf(error);
      if (status === 412 || status === 409) return false;
      throw this.refusal(`writing ${key}`, error);
    }
  }

  async isPresent(remote: string, buildId: string): Promise<boolean> {
    const key = this.buildPrefix(remote, buildId) + BUILD_MANIFEST;
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.where.bucket, Key: key }));
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw this.refusal(`reading ${key}`, error);
    }
  }

  /** The manifest first (the build stops being present at once), then every object under its prefix. */
  async delete(remote: string, buildId: string): Promise<void> {
    const prefix = this.buildPrefix(remote, buildId);
    const Bucket = this.where.bucket;
    const list = (ContinuationToken?: string) =>
      this.client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
    try {
      let page = await list();
      // Gone already (retention retries every purged build at each publish): one request.
      if ((page.Contents ?? []).length === 0) return;
      await this.client.send(new DeleteObjectCommand({ Bucket, Key: prefix + BUILD_MANIFEST }));
      for (;;) {
        const Objects = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
        if (Objects.length > 0) await this.client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects } }));
        if (!page.IsTruncated || !page.NextContinuationToken) return;
        page = await list(page.NextContinuationToken);
      }
    } catch (error) {
      throw this.refusal(`deleting ${prefix}`, error);
    }
  }

  /** A store that cannot be reached or refuses is the operator's to fix: say which and why, no stack. */
  private refusal(what: string, error: unknown): Refusal {
    const status = statusOf(error);
    const name = error instanceof Error ? error.name : 'Error';
    const message = error instanceof Error ? error.message : String(error);
    return new Refusal(
      `the build store ${this.location} failed ${what}: ${name}${status ? ` (HTTP ${status})` : ''}: ${message}` +
        ' (check AWS_ENDPOINT_URL_S3, AWS_REGION and the credentials)',
    );
  }
}
