import { PAGE_BUILDS_PATTERN, SG_BUILDS_HEADER } from '@special-gift/shared/builds';
import { REPORT_WINDOWS, validateTelemetryBatch, type ReportWindow } from '@special-gift/shared/telemetry';
import { Router, type RequestHandler, type Response } from 'express';
import { authorize, principalOf, REPORT_OFF, type Access } from '../access';
import type { Database } from '../db/database';
import { ApiError } from '../http/api-error';
import { OPERATOR_PAGE_CSP, operatorPageHtml, servePage } from '../http/browser-page';
import { parseJsonBody, requireBodyType } from '../http/json-body';
import { methodNotAllowed } from '../http/method-not-allowed';
import { pageTokenRateLimit, telemetryRateLimit } from '../http/rate-limit';
import type { RolloutRuleParameters } from '../rollouts';
import { canaryDecision } from './decision-route';
import { engineOf } from './engine';
import { REPORT_PAGE } from './report-page-paths';
import { checkPageToken, issuePageToken } from './page-token';
import { buildReport } from './report-query';
import type { TelemetryStore } from './telemetry-store';
import { TELEMETRY_VOCABULARY } from './vocabulary';

export interface TelemetryRouteOptions {
  readonly store: TelemetryStore;
  readonly batchesPerMinute: number;
  readonly access: Access;
  /** The canary decision rule's parameters (the API's ROLLOUT_* settings, docs/rollouts.md). */
  readonly decisionRule: RolloutRuleParameters;
  /** Page tokens (docs/telemetry.md): their keys (the first signs; none: off, every batch unsigned) and per-client limit. */
  readonly pageTokens: {
    readonly keys: readonly Buffer[];
    readonly perMinute: number;
    /** The `Sg-Builds` a page of this canary bucket is composed with now (the releases' snapshot rule). */
    readonly servedBuilds: (bucket: number) => Promise<string>;
    /** Epoch seconds; tests move it. */
    readonly now: () => number;
  };
}

type PageTokens = TelemetryRouteOptions['pageTokens'];

function collect(store: TelemetryStore, environment: string, { keys, now }: PageTokens): RequestHandler {
  return (req, res) => {
    const checked = validateTelemetryBatch(req.body, TELEMETRY_VOCABULARY);
    if (!checked.ok) {
      throw new ApiError(
        422,
        'invalid_telemetry',
        'The batch does not match the telemetry wire format; see `problems`.',
        undefined,
        checked.problems,
      );
    }
    // Accepted whether buffered or dropped (buffer full): the browser could do nothing better with
    // a refusal, and telemetry is lossy by design; drops are counted by the store.
    // A refused token still gets 202: the batch is kept for the report, marked, and counted apart.
    store.accept(
      checked.value,
      engineOf(req.get('user-agent')),
      checkPageToken(keys, environment, checked.value, now(), req.ip),
    );
    res.status(202).end();
  };
}

/** The header that says why no token was issued (for logs and tests; nginx never prints it). */
export const PAGE_TOKEN_REFUSED_HEADER = 'sg-page-token-refused';

/**
 * A refusal of a page token: 204 with an empty body, whatever the reason. The composer prints the
 * answer into an HTML attribute, so nothing but a token (200) may ever have a body here. (The
 * images' nginx no longer asks: it mints its pages' tokens itself, snippets/page-token.conf.)
 */
export function refusePageToken(res: Response, reason: string) {
  res.status(204).set('Cache-Control', 'no-store').set(PAGE_TOKEN_REFUSED_HEADER, reason).end();
}

/**
 * `GET /v1/telemetry/page-token?bucket=<0-99>` with the page's `Sg-Builds`: the composer's per-page
 * include (uncached, bounded). Issued only for the builds a page of that bucket gets now, so a token
 * never vouches for builds no visitor is served (a page composed from a snapshot a release has just
 * replaced, or a preview, gets none: its batch is unsigned). Answers a bare token, or 204.
 */
function issue(environment: string, { keys, servedBuilds, now }: PageTokens): RequestHandler {
  return async (req, res) => {
    const [key] = keys;
    if (key === undefined) return refusePageToken(res, 'page_tokens_off');
    const bucket = req.query.bucket;
    if (typeof bucket !== 'string' || !/^([0-9]|[1-9][0-9])$/.test(bucket)) return refusePageToken(res, 'bad_bucket');
    const builds = req.get(SG_BUILDS_HEADER) ?? '';
    if (!PAGE_BUILDS_PATTERN.test(builds)) return refusePageToken(res, 'bad_builds');
    let served: string;
    try {
      served = await servedBuilds(Number(bucket));
    } catch {
      return refusePageToken(res, 'not_ready');
    }
    if (served !== builds) return refusePageToken(res, 'builds_not_served');
    res
      .set('Cache-Control', 'no-store')
      .type('text/plain')
      .send(issuePageToken(key, environment, { bucket: Number(bucket), builds, now: now(), client: req.ip }));
  };
}

function report(db: Database): RequestHandler {
  return async (req, res) => {
    const window = req.query.window ?? '1h';
    if (typeof window !== 'string' || !(REPORT_WINDOWS as readonly string[]).includes(window)) {
      throw new ApiError(400, 'bad_request', `window must be one of ${REPORT_WINDOWS.join(', ')}.`);
    }
    // A team's token reads its own remote, named or not; the whole report is the operator's.
    const remote = req.query.remote ?? principalOf(res).remote ?? undefined;
    if (remote !== undefined && (typeof remote !== 'string' || !TELEMETRY_VOCABULARY.remotes.includes(remote))) {
      throw new ApiError(400, 'bad_request', `remote must be one of ${TELEMETRY_VOCABULARY.remotes.join(', ')}.`);
    }
    authorize(res, remote ?? null, 'viewer', 'read field data');
    res.json(await buildReport(db, { window: window as ReportWindow, remote }));
  };
}

// Served at /v1/telemetry/report.html, on the API's own origin only: the host refuses it (docs/console.md).
const REPORT_HTML = operatorPageHtml({
  page: REPORT_PAGE,
  title: 'Field telemetry by remote and build',
  body: `<main id="report">
<h1>Field telemetry by remote and build</h1>
<noscript>This page needs JavaScript.</noscript>
</main>`,
});

/**
 * `POST /v1/telemetry` (the browser's beacon), the report as JSON (a remote's tokens read its own,
 * the operator all) and as a page. Mounted
 * before the XSRF check, after the origin check: `navigator.sendBeacon` cannot set a header, so a
 * beacon can never carry the XSRF token. That is safe here: a batch changes nothing but counters
 * and reads nothing back, so a forged one could only add noise, which the strict format, the rate
 * limit and the origin check (a browser's cross-site beacon is refused) bound; and the canary
 * verdict, which acts, counts only batches signed by a real page's token (page-token.ts).
 * `/v1/telemetry/page-token` is public too, like the snapshot: it gives what fetching a page gives.
 */
export function telemetryRoutes(
  db: Database,
  { store, batchesPerMinute, access, decisionRule, pageTokens }: TelemetryRouteOptions,
) {
  const router = Router();
  const operator = access.authenticate(REPORT_OFF);
  router
    .route('/v1/telemetry')
    .post(
      telemetryRateLimit({ perMinute: batchesPerMinute }),
      requireBodyType(['application/json', 'text/plain']),
      parseJsonBody,
      collect(store, access.environment, pageTokens),
    )
    .all(methodNotAllowed(['POST']));
  router
    .route('/v1/telemetry/page-token')
    .get(
      pageTokenRateLimit({ perMinute: pageTokens.perMinute, refuse: (res) => refusePageToken(res, 'rate_limited') }),
      issue(access.environment, pageTokens),
    )
    .all(methodNotAllowed(['GET', 'HEAD']));
  router
    .route('/v1/telemetry/report')
    .get(...operator, report(db))
    .all(methodNotAllowed(['GET', 'HEAD']));
  router
    .route('/v1/telemetry/verdict')
    .get(
      ...operator,
      canaryDecision(db, decisionRule, () => new Date()),
    )
    .all(methodNotAllowed(['GET', 'HEAD']));
  servePage(router, {
    path: '/v1/telemetry/report.html',
    html: REPORT_HTML,
    csp: OPERATOR_PAGE_CSP,
    page: REPORT_PAGE,
  });
  return router;
}
