// The S3 stand-in as a process: the compose stack's `s3` service (deploy/s3.Dockerfile), or on a
// machine: `node deploy/s3/s3-server.mjs`. s3rver, objects on disk (docs/releases.md, "Object
// storage"). Production uses a real object store and no such process.
//   SG_S3_PORT (4568), SG_S3_DIR (.data/s3), SG_S3_BUCKET (sg-builds), SG_S3_ADDRESS (0.0.0.0)
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import S3rver from 's3rver';

const directory = path.resolve(process.env.SG_S3_DIR || '.data/s3');
const bucket = process.env.SG_S3_BUCKET || 'sg-builds';
mkdirSync(directory, { recursive: true });
const server = new S3rver({
  address: process.env.SG_S3_ADDRESS || '0.0.0.0',
  port: Number(process.env.SG_S3_PORT || 4568),
  directory,
  silent: true,
  configureBuckets: [{ name: bucket }],
  // Path-style only: a request to http://s3:4568/... names the bucket in its path, not its host.
  vhostBuckets: false,
});
const { address, port } = await server.run();
console.log(`s3: http://${address}:${port}/${bucket}, objects in ${directory}`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
