import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Where the local operator token lives: beside the API's data, never committed (`.data/` is ignored). */
export function operatorTokenPath(root: string): string {
  return path.join(root, '.data', 'operator-token');
}

/**
 * The operator token of a checkout (`root`): read from `<root>/.data/operator-token`, or created there.
 * `npm run up` passes it to the API; the release tool sends it.
 */
export function readOrCreateOperatorToken(root: string): string {
  return readOrCreateToken(operatorTokenPath(root));
}

/**
 * A local secret kept in `file`: read, or created there (32 random bytes, base64url: 43 characters,
 * over the API's 32-character minimum) readable by its owner only. The operator token, and the gate
 * runner's (`npm run up`).
 */
export function readOrCreateToken(file: string): string {
  try {
    const token = readFileSync(file, 'utf8').trim();
    if (token !== '') return token;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const token = randomBytes(32).toString('base64url');
  try {
    // `wx`: of two processes creating it at once, the second fails and reads the first one's.
    writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
  chmodSync(file, 0o600);
  return token;
}
