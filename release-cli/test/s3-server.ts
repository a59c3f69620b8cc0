/**
 * The S3 stand-in for tests and the compose stack: s3rver (docs/releases.md, "Which S3 server"),
 * objects on disk, the build bucket created at start (the compose service: deploy/s3/s3-server.mjs).
 */
import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';

/** s3rver's fixed credentials (it knows this access key id; it does not verify V4 signatures). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface RunningS3 {
  /** `http://<address>:<port>`, for AWS_ENDPOINT_URL_S3. */
  readonly endpoint: string;
  readonly port: number;
  close(): Promise<void>;
}

export async function startS3Server(options: {
  directory: string;
  bucket: string;
  /** 0 (the default): any free port. */
  port?: number;
  address?: string;
}): Promise<RunningS3> {
  mkdirSync(options.directory, { recursive: true });
  const address = options.address ?? '127.0.0.1';
  const server = new S3rver({
    address,
    port: options.port ?? 0,
    directory: options.directory,
    silent: true,
    configureBuckets: [{ name: options.bucket }],
    // Path-style only, as the store and nginx address it (see deploy/s3/s3-server.mjs).
    vhostBuckets: false,
  });
  const { port } = await server.run();
  const host = address === '0.0.0.0' ? '127.0.0.1' : address;
  return { endpoint: `http://${host}:${port}`, port, close: () => server.close() };
}
