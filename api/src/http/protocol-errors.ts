import type { ApiErrorCode } from '@special-gift/shared/api';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { RequestHandler } from 'express';
import type { Duplex } from 'node:stream';
import { ApiError, errorBody } from './api-error';

interface ProtocolAnswer {
  readonly status: number;
  readonly reason: string;
  readonly code: ApiErrorCode;
  readonly message: string;
}

const BAD_REQUEST: ProtocolAnswer = {
  status: 400,
  reason: 'Bad Request',
  code: 'bad_request',
  message: 'The request could not be understood.',
};

/** Node's parser errors (llhttp `HPE_*` codes and a few of Node's own) that get more than a generic 400. */
const ANSWERS: Readonly<Record<string, ProtocolAnswer>> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    code: 'headers_too_large',
    message: 'The request headers are too large.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    code: 'request_timeout',
    message: 'The request took too long to arrive.',
  },
};

/** A complete HTTP/1.1 response with the JSON error body, written straight to a socket. */
export function rawErrorResponse({ status, reason, code, message }: ProtocolAnswer): string {
  const body = JSON.stringify(errorBody(code, message));
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

export interface RequestTimeouts {
  /** A request's headers must have arrived this long after it began. */
  readonly headersTimeoutMs: number;
  /** The whole request, body included. */
  readonly requestTimeoutMs: number;
}

/** What openapi.yaml documents for 408 `request_timeout`. */
export const REQUEST_TIMEOUTS: RequestTimeouts = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 };

/**
 * The HTTP server for the app, with every protocol-level error answered in the JSON shape. Node's
 * own 400 for an HTTP/1.1 request without Host has no body, so the app answers that one
 * ({@link requireHost}). Slow clients (slowloris) get `timeouts` to send a request; Node checks
 * them every `connectionsCheckingInterval`, 30 s by default, which would let a stalled request
 * hold its connection for up to 30 s longer than documented.
 */
export function createApiServer(
  app: RequestListener,
  { headersTimeoutMs, requestTimeoutMs }: RequestTimeouts = REQUEST_TIMEOUTS,
): Server {
  const server = createServer(
    {
      requireHostHeader: false,
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(headersTimeoutMs / 4)),
    },
    app,
  );
  answerProtocolErrors(server);
  return server;
}

/** How many `Host` header lines a request has (Node keeps only the first in `req.headers`). */
function hostLines(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2)
    if (rawHeaders[index]?.toLowerCase() === 'host') count += 1;
  return count;
}

/**
 * 400 `bad_request`, in the JSON shape, for an HTTP/1.1 request without `Host`, or any request
 * with more than one (RFC 9112, 3.2): two could be read differently by a proxy and by the API.
 */
export const requireHost: RequestHandler = (req, _res, next) => {
  const lines = hostLines(req.rawHeaders);
  if (lines > 1) return next(new ApiError(400, 'bad_request', 'A request must have exactly one Host header.'));
  next(
    req.httpVersion === '1.1' && !req.headers.host
      ? new ApiError(400, 'bad_request', 'An HTTP/1.1 request needs a Host header.')
      : undefined,
  );
};

/**
 * Requests Node refuses before express sees them (a malformed request line or header, a bad
 * Content-Length, Content-Length with chunked, oversized headers, an unmet `Expect`) get the same
 * JSON error shape as every other error, instead of Node's bodiless default.
 */
export function answerProtocolErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Nothing can be sent on a reset socket, nor once an answer has started (as Node's own default).
    const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(rawErrorResponse(ANSWERS[error.code ?? ''] ?? BAD_REQUEST));
  });
  // This is not a proxy: without a listener, Node would close a CONNECT's connection unanswered.
  server.on('connect', (_req, socket: Duplex) => {
    socket.end(rawErrorResponse({ ...BAD_REQUEST, message: 'CONNECT is not supported: this server is not a proxy.' }));
  });
  server.on('checkExpectation', (_req, res) => {
    const body = JSON.stringify(errorBody('expectation_failed', 'Only "Expect: 100-continue" is supported.'));
    res.writeHead(417, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      Connection: 'close',
    });
    res.end(body);
  });
}
