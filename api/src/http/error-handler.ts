import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, sendError } from './api-error';
import type { Logger } from './logger';

/** Unknown paths: always JSON, like every other error. */
export const notFound: RequestHandler = (_req, _res, next) => {
  next(new ApiError(404, 'not_found', 'There is nothing at this path.'));
};

/** body-parser's error `type`s mapped to our codes, so its HTML error pages never reach a client. */
const BODY_PARSER_ERRORS: Readonly<Record<string, ApiError>> = {
  'entity.too.large': new ApiError(413, 'payload_too_large', 'The request body is larger than 16 KiB.'),
  'entity.parse.failed': new ApiError(400, 'invalid_json', 'The request body is not valid JSON.'),
  'charset.unsupported': new ApiError(415, 'unsupported_media_type', 'The body must be JSON in UTF-8.'),
  'encoding.unsupported': new ApiError(415, 'unsupported_media_type', 'Compressed request bodies are not accepted.'),
};

const INTERNAL_ERROR = new ApiError(500, 'internal_error', 'Something went wrong on our side. Please try again later.');

/**
 * The database cannot be reached (stopped, restarting, its name gone from the network): a 503 the
 * client may retry, as readiness says, not a 500. Socket errors by code, PostgreSQL's connection
 * exceptions (class 08) and shutdowns (57P01-57P03) by SQLSTATE, pg's and pg-pool's own by message
 * (a transaction's next query on a connection the server ended: "is not queryable").
 */
const DATABASE_UNAVAILABLE = new ApiError(
  503,
  'not_ready',
  'The database cannot be reached. Please try again shortly.',
);
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
]);
function isDatabaseUnavailable(error: unknown): boolean {
  const code = fieldOf(error, 'code');
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  const message = fieldOf(error, 'message');
  return (
    typeof message === 'string' &&
    /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/.test(
      message,
    )
  );
}

function fieldOf(error: unknown, key: string): unknown {
  return typeof error === 'object' && error !== null ? (error as Record<string, unknown>)[key] : undefined;
}

// By shape, not `instanceof`: errors may come from another realm (the database's WASM glue).
function describe(error: unknown): string {
  const stack = fieldOf(error, 'stack');
  return typeof stack === 'string' ? stack : String(error);
}

/** What the client is told. Only our own errors and known client errors say more than "internal error". */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const type = fieldOf(error, 'type');
  if (typeof type === 'string' && Object.hasOwn(BODY_PARSER_ERRORS, type))
    return BODY_PARSER_ERRORS[type] ?? INTERNAL_ERROR;
  const status = fieldOf(error, 'status');
  // Other client errors raised by express or its parsers (e.g. an aborted upload, a bad URL escape).
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new ApiError(status, 'bad_request', 'The request could not be understood.');
  return isDatabaseUnavailable(error) ? DATABASE_UNAVAILABLE : INTERNAL_ERROR;
}

/** The last middleware: logs server faults with their stack, and answers with the JSON error shape only. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) {
      log({
        level: 'error',
        msg: 'request failed',
        method: req.method,
        path: req.originalUrl.split('?')[0],
        error: describe(error),
      });
    }
    if (res.headersSent) {
      // Too late for a clean answer; cut the connection so the client sees a failure, not a truncated success.
      res.destroy();
      return;
    }
    sendError(res, apiError);
  };
}
