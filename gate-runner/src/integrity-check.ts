// The integrity gate: every file recorded for the candidate at publish is served, byte for byte,
// where browsers will load it. The host's config.json names each remote's entry; a published build
// sits beside it under `builds/<id>/` (buildEntryUrl, as the host derives it), and each recorded
// path is fetched from there and its SRI compared with the one recorded.
import type { GateJob } from '@special-gift/shared/api';
import { buildEntryUrl } from '@special-gift/shared/composition';
import { sriOf } from '../../release-cli/src/sri';
import type { GateVerdict } from './api';
import { describeError } from './errors';

export interface IntegrityOptions {
  /** The live host's origin as browsers load it (`GATE_HOST_URL`). */
  readonly hostUrl: string;
  /** Per request. */
  readonly timeoutMs?: number;
  /** Files fetched at once. */
  readonly concurrency?: number;
}

/** A recorded path is a file under the build's folder: relative, without `..`, a scheme or a query. */
const SAFE_PATH = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/;

class Unreachable extends Error {}

async function fetchOrUnreachable(url: URL, timeoutMs: number): Promise<Response> {
  try {
    return await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (error) {
    throw new Unreachable(`${url.href} cannot be fetched: ${describeError(error)}`);
  }
}

/** Where the host loads the remote's entry from, from its config.json; a reason when it does not say. */
async function remoteEntryUrl(
  hostUrl: string,
  remote: string,
  timeoutMs: number,
): Promise<string | { failed: string }> {
  const configUrl = new URL('/config.json', hostUrl);
  const response = await fetchOrUnreachable(configUrl, timeoutMs);
  if (!response.ok) throw new Unreachable(`${configUrl.href} answered ${response.status}`);
  const config: unknown = await response.json().catch(() => undefined);
  const remotes = (config as { remotes?: unknown } | undefined)?.remotes;
  const entry =
    typeof remotes === 'object' && remotes !== null ? (remotes as Record<string, unknown>)[remote] : undefined;
  if (typeof entry !== 'string' || entry === '')
    return { failed: `The live host's config.json names no entry for the remote "${remote}".` };
  return entry;
}

export async function checkIntegrity(
  job: GateJob,
  { hostUrl, timeoutMs = 10_000, concurrency = 6 }: IntegrityOptions,
): Promise<GateVerdict> {
  const started = Date.now();
  const paths = Object.keys(job.integrity).sort();
  const fail = (reason: string, detail: Record<string, unknown> = {}): GateVerdict => ({
    outcome: 'failed',
    reason,
    detail: { ...detail, durationMs: Date.now() - started },
  });
  if (!paths.includes('remoteEntry.js'))
    return fail('The build was recorded without the integrity of its remoteEntry.js: publish it again.');
  const unsafe = paths.filter((path) => !SAFE_PATH.test(path));
  if (unsafe.length > 0)
    return fail(`The recorded integrity names paths outside the build's folder: ${unsafe.join(', ')}.`);

  let folder: URL;
  try {
    const entry = await remoteEntryUrl(hostUrl, job.remote, timeoutMs);
    if (typeof entry !== 'string') return fail(entry.failed);
    // The host resolves config.json's URLs against its page; the route's page is one of them.
    folder = new URL('.', buildEntryUrl(entry, job.buildId, new URL(job.route, hostUrl).href));
  } catch (error) {
    if (error instanceof Unreachable)
      return {
        outcome: 'inconclusive',
        reason: `The live host cannot be read: ${error.message}.`,
        detail: { durationMs: Date.now() - started },
      };
    throw error;
  }

  const mismatched: string[] = [];
  const missing: Array<{ path: string; status: number }> = [];
  const unreachable: string[] = [];
  let bytes = 0;
  const queue = [...paths];
  const worker = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const url = new URL(path, folder);
      let response: Response;
      try {
        response = await fetchOrUnreachable(url, timeoutMs);
      } catch (error) {
        unreachable.push(`${path}: ${(error as Error).message}`);
        continue;
      }
      if (response.status >= 500) {
        unreachable.push(`${path}: ${response.status}`);
        await response.body?.cancel();
        continue;
      }
      if (!response.ok) {
        missing.push({ path, status: response.status });
        await response.body?.cancel();
        continue;
      }
      const content = Buffer.from(await response.arrayBuffer());
      bytes += content.length;
      if (sriOf(content) !== job.integrity[path]) mismatched.push(path);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, paths.length) }, worker));

  const detail = {
    folder: folder.href,
    files: paths.length,
    bytes,
    mismatched: mismatched.sort(),
    missing: missing.sort((a, b) => (a.path < b.path ? -1 : 1)),
    durationMs: Date.now() - started,
  };
  if (mismatched.length > 0 || missing.length > 0) {
    const problems = [
      ...missing.map(({ path, status }) => `${path} (${status})`),
      ...mismatched.map((path) => `${path} (its bytes are not the ones recorded)`),
    ];
    return {
      outcome: 'failed',
      reason: `The build as served differs from the one published: ${problems.join(', ')}.`,
      detail,
    };
  }
  if (unreachable.length > 0)
    return {
      outcome: 'inconclusive',
      reason: `Not every file could be fetched: ${unreachable.sort().join('; ')}.`,
      detail: { ...detail, unreachable },
    };
  return {
    outcome: 'passed',
    reason: `All ${paths.length} files (${bytes} bytes) match their recorded integrity.`,
    detail,
  };
}
