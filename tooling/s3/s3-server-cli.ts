/**
 * `node --import tsx tooling/s3/s3-server-cli.ts`: the S3 stand-in as a process (the compose
 * stack's `s3` service). Reads SG_S3_PORT (4568), SG_S3_DIR (.data/s3), SG_S3_BUCKET (sg-builds)
 * and SG_S3_ADDRESS (0.0.0.0).
 */
import path from 'node:path';
import { startS3Server } from './s3-server';

const directory = path.resolve(process.env.SG_S3_DIR || '.data/s3');
const bucket = process.env.SG_S3_BUCKET || 'sg-builds';
const running = await startS3Server({
  directory,
  bucket,
  port: Number(process.env.SG_S3_PORT || 4568),
  address: process.env.SG_S3_ADDRESS || '0.0.0.0',
});
console.log(`s3: ${running.endpoint} bucket ${bucket}, objects in ${directory}`);
const stop = () => void running.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
