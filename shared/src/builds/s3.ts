// Where builds and release states live in object storage, and how to reach it: one reading of the
// settings for every writer (the release tool, the API's release state) and the tests.

type Env = Readonly<Record<string, string | undefined>>;

export interface S3Location {
  readonly bucket: string;
  /** Without leading or trailing `/`; may be empty. */
  readonly prefix: string;
}

/** Every published object that an id or serial names: never other bytes, so browsers and CDNs keep it a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** `s3://bucket/prefix` → its parts; anything else (a path) → undefined. */
export function parseS3Location(value: string): S3Location | undefined {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(value);
  if (!match) return undefined;
  return { bucket: match[1] ?? '', prefix: (match[2] ?? '').replace(/^\/+|\/+$/g, '') };
}

/** The AWS SDK's S3 client settings this reads (a subset of its `S3ClientConfig`). */
export interface S3ClientSettings {
  readonly forcePathStyle: boolean;
  readonly endpoint?: string;
  readonly region?: string;
  readonly credentials?: {
    readonly accessKeyId: string;
    readonly secretAccessKey: string;
    readonly sessionToken?: string;
  };
}

/**
 * The client from the SDK's standard settings (AWS_REGION, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY
 * or any other link of the credential chain, AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL), so AWS S3,
 * MinIO, R2 and GCS's S3 API all work. With an endpoint of its own (anything but AWS) requests use
 * path-style URLs (`<endpoint>/<bucket>/<key>`), which they all accept; SG_S3_PATH_STYLE=false|true
 * overrides that.
 */
export function s3ClientConfig(env: Env): S3ClientSettings {
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL;
  const region = env.AWS_REGION || env.AWS_DEFAULT_REGION;
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  return {
    forcePathStyle: env.SG_S3_PATH_STYLE ? env.SG_S3_PATH_STYLE === 'true' : Boolean(endpoint),
    ...(endpoint ? { endpoint } : {}),
    ...(region ? { region } : {}),
    // Given explicitly only when set in the environment (tests pass their own); otherwise the SDK's
    // chain finds them (profiles, SSO, web identity in CI, instance roles).
    ...(accessKeyId && secretAccessKey
      ? {
          credentials: {
            accessKeyId,
            secretAccessKey,
            ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
          },
        }
      : {}),
  };
}
