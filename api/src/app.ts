import express, { type Express } from 'express';
import type { Database } from './db/database';
import { errorHandler, notFound } from './http/error-handler';
import { jsonLineLogger, silentLogger, type Logger } from './http/logger';
import { requestLog } from './http/request-log';
import { securityHeaders } from './http/security-headers';
import { xsrfProtection } from './http/xsrf';
import { healthRoutes } from './routes/health';
import { signUpRoutes } from './routes/sign-ups';

export interface AppOptions {
  readonly db: Database;
  /** Adds `Secure` to the XSRF cookie; on wherever the API is served over HTTPS. */
  readonly cookieSecure: boolean;
  /** Where log lines go: JSON lines on stdout by default; `false` for none (tests). */
  readonly log?: Logger | false;
}

/** The API as an express app, not listening: `main.ts` serves it, tests listen on a free port. */
export function createApp({ db, cookieSecure, log = jsonLineLogger }: AppOptions): Express {
  const logger = log === false ? silentLogger : log;
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLog(logger));
  app.use(securityHeaders);
  // Before every route: a mutating request without the token never reaches a handler.
  app.use(xsrfProtection({ cookieSecure }));
  app.use(healthRoutes());
  app.use(signUpRoutes(db));
  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}
