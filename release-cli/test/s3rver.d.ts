// s3rver 3.7.1 ships no types: the part of its API the S3 stand-in uses.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    directory: string;
    silent?: boolean;
    configureBuckets?: ReadonlyArray<{ name: string }>;
    /** Whether a Host header other than an address names the bucket (default true). */
    vhostBuckets?: boolean;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
