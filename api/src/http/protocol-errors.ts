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

const BAD_REQUEST: ProtocolAnswer = { status: 400, reason: 'Bad Request', code: 'bad_request', message: 'The request could not be understood.' };

/** Node's parser errors (llhttp `HPE_*` codes and a few of Node's own) that get more than a generic 400. */
const ANSWERS: Readonly<Record<string, ProtocolAnswer>> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', code: 'headers_too_large', message: 'The request headers are too large.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', code: 'request_timeout', message: 'The request took too long to arrive.' },
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

/**
 * The HTTP server for the app, with every protocol-level error answered in the JSON shape. Node's
 * own 400 for an HTTP/1.1 request without Host has no body, so the app answers that one
 * ({@link requireHost}).
 */
export function createApiServer(app: RequestListener): Server {
  const server = createServer({ requireHostHeader: false }, app);
  // Slow clients (slowloris) get this long for a whole request.
  server.requestTimeout = 30_000;
  answerProtocolErrors(server);
  return server;
}

/** 400 `bad_request` for an HTTP/1.1 request without `Host` (RFC 9112, 3.2), in the JSON shape. */
export const requireHost: RequestHandler = (req, _res, next) => {
  next(req.httpVersion === '1.1' && !req.headers.host ? new ApiError(400, 'bad_request', 'An HTTP/1.1 request needs a Host header.') : undefined);
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
