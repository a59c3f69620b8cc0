// The gate runner's side of the API's gate-job protocol (docs/rollouts.md, "The gate runner"):
// claim the next gate, keep the claim alive while it runs, answer it. Bound to the claim's nonce,
// so a runner whose claim lapsed and was given to another cannot write a result.
import type { ApiErrorBody, GateJob, GateResult } from '@special-gift/shared/api';
import { describeError } from './errors';

/** The API gave the gate to another claim (its nonce is stale): 409 `gate_job_gone`. */
export class GateJobGone extends Error {
  override readonly name = 'GateJobGone';
}

/** The API could not be reached, refused the token or answered something this runner cannot use. */
export class GateApiError extends Error {
  override readonly name = 'GateApiError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface GateApiOptions {
  /** The API's base URL (`http://127.0.0.1:3004`), with its path where a proxy serves it under one (`https://app.example/api`). */
  readonly apiUrl: string;
  /** `GATE_RUNNER_TOKEN`: the API's separate credential for gate runners. */
  readonly token: string;
  /** Per request; the API answers a claim at once (no long poll). */
  readonly timeoutMs?: number;
}

/** What a check found, as the result route takes it (the nonce is the API client's to add). */
export type GateVerdict = Omit<GateResult, 'nonce'>;

export interface GateApi {
  /** The next gate to run, or null when there is none (204). */
  claim(): Promise<GateJob | null>;
  /** Extends the claim; throws {@link GateJobGone} once it is another runner's. */
  heartbeat(job: GateJob): Promise<void>;
  /** Records the outcome; throws {@link GateJobGone} once the claim is another runner's. */
  result(job: GateJob, verdict: GateVerdict): Promise<void>;
}

const JOB_STRINGS = [
  'rolloutId',
  'environment',
  'remote',
  'buildId',
  'nonce',
  'route',
  'previewCookie',
  'deadline',
] as const;

/** The claim's body as a GateJob, or a clear error naming what is wrong with it. */
export function parseGateJob(body: unknown): GateJob {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new GateApiError('The API answered a claim with something that is not a gate job (not a JSON object).');
  const job = body as Record<string, unknown>;
  const problems = JOB_STRINGS.filter((key) => typeof job[key] !== 'string' || job[key] === '').map(
    (key) => `"${key}" is not a non-empty string`,
  );
  if (job.gate !== 'integrity' && job.gate !== 'acceptance') problems.push('"gate" is not integrity or acceptance');
  const integrity = job.integrity;
  if (
    typeof integrity !== 'object' ||
    integrity === null ||
    Array.isArray(integrity) ||
    Object.values(integrity).some((value) => typeof value !== 'string')
  )
    problems.push('"integrity" is not an object of strings');
  if (typeof job.route === 'string' && !job.route.startsWith('/')) problems.push('"route" does not start with "/"');
  if (problems.length > 0)
    throw new GateApiError(`The API answered a claim with a bad gate job: ${problems.join('; ')}.`);
  return body as GateJob;
}

export function gateApi({ apiUrl, token, timeoutMs = 10_000 }: GateApiOptions): GateApi {
  if (!token)
    throw new GateApiError('GATE_RUNNER_TOKEN is empty: the API accepts gate jobs only from its gate-runner token.');
  // Relative to the base's path: an API behind a proxy's prefix (the host's /api/) keeps it.
  const base = new URL('v1/rollouts/gate-jobs/', apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`);

  async function post(path: string, body: unknown): Promise<Response> {
    const url = new URL(path, base);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new GateApiError(`Cannot reach the API at ${url.origin}: ${describeError(error)}.`);
    }
    if (response.ok) return response;
    const answer = (await response.json().catch(() => undefined)) as Partial<ApiErrorBody> | undefined;
    const { code, message } = answer?.error ?? {};
    if (response.status === 409 && code === 'gate_job_gone')
      throw new GateJobGone(message ?? 'The gate job was given to another claim.');
    if (response.status === 401 || response.status === 403)
      throw new GateApiError(
        `The API refused the gate runner's token (${response.status}${code ? ` ${code}` : ''}): is GATE_RUNNER_TOKEN the API's?`,
        response.status,
      );
    throw new GateApiError(
      `POST ${url.pathname} answered ${response.status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}.`,
      response.status,
    );
  }

  const jobPath = (job: GateJob, action: string) =>
    `${encodeURIComponent(job.rolloutId)}/${encodeURIComponent(job.gate)}/${action}`;

  return {
    async claim() {
      const response = await post('claim', {});
      if (response.status === 204) return null;
      const body: unknown = await response.json().catch(() => {
        throw new GateApiError(`The API answered a claim ${response.status} without a JSON body.`);
      });
      return parseGateJob(body);
    },
    async heartbeat(job) {
      await post(jobPath(job, 'heartbeat'), { nonce: job.nonce });
    },
    async result(job, verdict) {
      const body: GateResult = { nonce: job.nonce, ...verdict };
      await post(jobPath(job, 'result'), body);
    },
  };
}
