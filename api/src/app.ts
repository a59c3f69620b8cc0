import express, { type Express } from 'express';
import type { Database } from './db/database';
import { errorHandler, notFound } from './http/error-handler';
import { closeConnectionsWhenStopping, Lifecycle } from './http/lifecycle';
import { jsonLineLogger, silentLogger, type Logger } from './http/logger';
import { originCheck } from './http/origin-check';
import { requireHost } from './http/protocol-errors';
import { requestLog } from './http/request-log';
import { securityHeaders } from './http/security-headers';
import { xsrfProtection } from './http/xsrf';
import { healthRoutes } from './routes/health';
import { signUpRoutes } from './routes/sign-ups';

export interface AppOptions {
  readonly db: Database;
  /** Adds `Secure` to the XSRF cookie; on wherever the API is served over HTTPS. */
  readonly cookieSecure: boolean;
  /** Origins besides the API's own that may send mutating requests (config `PUBLIC_ORIGIN`). */
  readonly allowedOrigins?: readonly string[];
  /** Per-client sign-up attempts a minute; 0: no limit (tests that send many). */
  readonly signUpsPerMinute?: number;
  readonly idempotencyKeyTtlHours?: number;
  /** Shared with main.ts, which flips it on shutdown. */
  readonly lifecycle?: Lifecycle;
  /** Where log lines go: JSON lines on stdout by default; `false` for none (tests). */
  readonly log?: Logger | false;
}

/** The API as an express app, not listening: `main.ts` serves it, tests listen on a free port. */
export function createApp({
  db,
  cookieSecure,
  allowedOrigins = [],
  signUpsPerMinute = 0,
  idempotencyKeyTtlHours = 24,
  lifecycle = new Lifecycle(),
  log = jsonLineLogger,
}: AppOptions): Express {
  const logger = log === false ? silentLogger : log;
  const app = express();
  app.disable('x-powered-by');
  // The client address for rate limiting: X-Forwarded-For is believed only from a proxy on a
  // loopback or private address (the host's nginx in front).
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  app.use(requestLog(logger));
  app.use(closeConnectionsWhenStopping(lifecycle));
  app.use(requireHost);
  app.use(securityHeaders);
  // Before every route: a mutating request from another site, or without the token, never reaches a handler.
  app.use(originCheck({ allowedOrigins }));
  app.use(xsrfProtection({ cookieSecure }));
  app.use(healthRoutes(db, lifecycle));
  app.use(signUpRoutes(db, { idempotencyKeyTtlHours, signUpsPerMinute }));
  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}
