import express, { type Express } from 'express';
import { accessRoutes, createAccess } from './access';
import { consoleRoutes } from './console';
import type { Database } from './db/database';
import { errorHandler, notFound } from './http/error-handler';
import { closeConnectionsWhenDraining, Lifecycle } from './http/lifecycle';
import { jsonLineLogger, silentLogger, type Logger } from './http/logger';
import { originCheck } from './http/origin-check';
import { requireHost } from './http/protocol-errors';
import { requestLog } from './http/request-log';
import { securityHeaders } from './http/security-headers';
import { trustedProxies } from './http/trusted-proxies';
import { xsrfProtection } from './http/xsrf';
import { healthRoutes } from './http/health';
import { PointerMemo, releaseRoutes, type StatePublisher } from './releases';
import { DEFAULT_ROLLOUT_RULE, type RolloutRuleParameters } from './rollouts';
import {
  DEFAULT_RUNNER_SETTINGS,
  defaultPlanRoutes,
  gateRoutes,
  rolloutRoutes,
  type RolloutRouteOptions,
  webhookRoutes,
  type RolloutRunnerSettings,
} from './rollout-runner';
import { signUpRoutes } from './signups';
import { pageTokenKeys, ROUTE_OWNERS, TelemetryStore, telemetryRoutes } from './telemetry';
import { IDEMPOTENCY_KEY_DEFAULT_TTL_HOURS } from '@special-gift/shared/api';

export interface AppOptions {
  readonly db: Database;
  /** Adds `Secure` to the XSRF cookie; on wherever the API is served over HTTPS. */
  readonly cookieSecure: boolean;
  /** The site's origins, the only ones that may send mutating requests (config `PUBLIC_ORIGIN`); none: loopback origins only. */
  readonly allowedOrigins?: readonly string[];
  /** Proxies whose X-Forwarded-For is believed (config `TRUSTED_PROXIES`); none: the peer is the client. */
  readonly trustedProxies?: readonly string[];
  /** Per-client sign-up attempts a minute; 0: no limit (tests that send many). */
  readonly signUpsPerMinute?: number;
  readonly idempotencyKeyTtlHours?: number;
  /** Shared with main.ts, which flips it on shutdown. */
  readonly lifecycle?: Lifecycle;
  /** Where log lines go: JSON lines on stdout by default; `false` for none (tests). */
  readonly log?: Logger | false;
  /** Where accepted telemetry is buffered; main.ts owns it to write the rest on shutdown. */
  readonly telemetryStore?: TelemetryStore;
  /** Per-client telemetry batches a minute; 0: no limit (benchmarks). */
  readonly telemetryBatchesPerMinute?: number;
  /**
   * The admin credential of every remote (config `OPERATOR_TOKEN`), which creates the teams' scoped
   * tokens (docs/access.md); none: release writes answer 503 and the report refuses everyone.
   */
  readonly operatorToken?: string;
  /** Failed authentications per client a minute before 429 (config `AUTH_FAILURES_PER_MINUTE`); 0: no limit. */
  readonly authFailuresPerMinute?: number;
  /** The environment whose release pointers this API serves (config `RELEASE_ENVIRONMENT`). */
  readonly releaseEnvironment?: string;
  /** The clock preview cookies expire by, in epoch seconds; tests move it. */
  readonly releaseNow?: () => number;
  /** The key page tokens are signed with (config `PAGE_TOKEN_KEY`); none: derived from the operator token. */
  readonly pageTokenKey?: string;
  /** Page tokens one client may be issued a minute (config `PAGE_TOKENS_PER_MINUTE`); 0: no limit. */
  readonly pageTokensPerMinute?: number;
  /** The clock page tokens are issued and checked by, in epoch seconds; tests move it. */
  readonly telemetryNow?: () => number;
  /** The canary decision rule's parameters (config `ROLLOUT_*`, docs/rollouts.md). */
  readonly rolloutRule?: RolloutRuleParameters;
  /** Writes the release state to the build store (config `RELEASE_STATE_*`); none: recorded only. */
  readonly releaseState?: StatePublisher;
  /** The rollout runner's settings (config `ROLLOUT_*`, `GATE_RUNNER_TOKEN`) its routes use; main.ts runs the loop. */
  readonly rolloutRunner?: RolloutRunnerSettings;
  /** The clock rollouts' routes use; tests move it with the runner's. */
  readonly rolloutNow?: () => Date;
}

/** The API as an express app, not listening: `main.ts` serves it, tests listen on a free port. */
export function createApp({
  db,
  cookieSecure,
  allowedOrigins = [],
  trustedProxies: proxies = [],
  signUpsPerMinute = 0,
  idempotencyKeyTtlHours = IDEMPOTENCY_KEY_DEFAULT_TTL_HOURS,
  lifecycle = new Lifecycle(),
  log = jsonLineLogger,
  telemetryStore,
  telemetryBatchesPerMinute = 60,
  operatorToken,
  authFailuresPerMinute = 30,
  releaseEnvironment = 'production',
  releaseNow,
  pageTokenKey: configuredPageTokenKey,
  pageTokensPerMinute = 60,
  telemetryNow = () => Math.floor(Date.now() / 1000),
  rolloutRule = DEFAULT_ROLLOUT_RULE,
  releaseState,
  rolloutRunner = DEFAULT_RUNNER_SETTINGS,
  rolloutNow = () => new Date(),
}: AppOptions): Express {
  const logger = log === false ? silentLogger : log;
  const access = createAccess({
    db,
    operatorToken,
    environment: releaseEnvironment,
    failuresPerMinute: authFailuresPerMinute,
  });
  const store = telemetryStore ?? new TelemetryStore(db, ROUTE_OWNERS, { log: logger });
  // One memo of the release pointers: the snapshot and the page tokens read the same.
  const memo = new PointerMemo(db, releaseEnvironment);
  const app = express();
  app.disable('x-powered-by');
  // The client address for rate limiting: X-Forwarded-For is believed only from a proxy the
  // deployment names (the host's nginx in front), never from any peer that merely looks private.
  const trusted = trustedProxies(proxies);
  app.set('trust proxy', (address: string) => trusted(address));
  app.use(requestLog(logger));
  app.use(closeConnectionsWhenDraining(lifecycle));
  app.use(requireHost);
  app.use(securityHeaders);
  // Before every route: a mutating request from another site, or without the token, never reaches a handler.
  app.use(originCheck({ allowedOrigins }));
  // Before the XSRF check: a beacon cannot send its header (see telemetryRoutes).
  app.use(
    telemetryRoutes(db, {
      store,
      batchesPerMinute: telemetryBatchesPerMinute,
      access,
      decisionRule: rolloutRule,
      pageTokens: {
        keys: pageTokenKeys(configuredPageTokenKey, operatorToken),
        perMinute: pageTokensPerMinute,
        servedBuilds: (bucket) => memo.servedBuilds(bucket),
        now: telemetryNow,
      },
    }),
  );
  // Releases and access before the XSRF check too: their writes carry a token in an Authorization
  // header, which a browser never adds by itself, so they cannot be forged cross-site (no CORS
  // grant lets another page set it), and the release tool has no XSRF cookie to echo. The origin
  // check above still refuses any cross-site browser request that tries.
  app.use(releaseRoutes({ access, cookieSecure, now: releaseNow, memo, publisher: releaseState }));
  // Rollouts likewise (bearer tokens; the gate runner's own credential for its jobs).
  app.use(
    gateRoutes({
      db,
      environment: releaseEnvironment,
      operatorToken,
      settings: rolloutRunner,
      routes: Object.fromEntries(Object.entries(ROUTE_OWNERS).map(([route, remote]) => [remote, route])),
      clock: rolloutNow,
    }),
  );
  // Before the rollouts' `/:id` routes, which would read "webhooks" as an id.
  const webhookKey = rolloutRunner.webhookKey ?? operatorToken;
  if (webhookKey !== undefined)
    app.use(webhookRoutes({ access, key: webhookKey, allowedHosts: rolloutRunner.webhookHosts, clock: rolloutNow }));
  const rolloutOptions: RolloutRouteOptions = {
    access,
    settings: rolloutRunner,
    rule: rolloutRule,
    clock: rolloutNow,
    afterPointerChange: async (serial) => {
      memo.forget();
      await releaseState?.afterChange(serial);
    },
  };
  // Before the rollouts' `/:id/:control` routes too (a remote could be named like a control).
  app.use(defaultPlanRoutes(rolloutOptions));
  app.use(rolloutRoutes(rolloutOptions));
  app.use(accessRoutes(access));
  app.use(consoleRoutes());
  app.use(xsrfProtection({ cookieSecure }));
  app.use(healthRoutes(db, lifecycle));
  app.use(signUpRoutes(db, { idempotencyKeyTtlHours, signUpsPerMinute }));
  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}
