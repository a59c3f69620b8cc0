import express, { type RequestHandler } from 'express';
import { ApiError } from './api-error';

export const JSON_BODY_LIMIT_BYTES = 16 * 1024;
/** Arrays and objects nested deeper than this are refused before parsing (a sign-up needs 1). */
export const JSON_MAX_DEPTH = 16;

const TOO_LARGE = () => new ApiError(413, 'payload_too_large', 'The request body is larger than 16 KiB.');

/**
 * 415 unless the body is declared as one of `types` (a charset parameter is fine if it is UTF-8;
 * `+json` types are not); 413 at once when the declared Content-Length is over the limit, before
 * a byte of the body is read. Both answers close the connection, so an unread body is never drained.
 */
export function requireBodyType(types: readonly [string, ...string[]]): RequestHandler {
  const wanted = `Send the body as ${types.join(' or ')}.`;
  return (req, res, next) => {
    if (!req.is([...types])) return next(new ApiError(415, 'unsupported_media_type', wanted));
    const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(req.get('content-type') ?? '')?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      return next(new ApiError(415, 'unsupported_media_type', 'The body must be JSON in UTF-8.'));
    }
    const declared = req.get('content-length');
    if (declared !== undefined && Number(declared) > JSON_BODY_LIMIT_BYTES) {
      res.set('Connection', 'close');
      return next(TOO_LARGE());
    }
    next();
  };
}

export const requireJsonContentType: RequestHandler = requireBodyType(['application/json']);

/** The raw bytes, at most 16 KiB, never decompressed: the limit bounds what is actually processed. */
const readBody = express.raw({ limit: JSON_BODY_LIMIT_BYTES, inflate: false, type: () => true });

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** How deep arrays and objects nest in JSON text, counted without parsing (strings skipped); stops past `max`. */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index += 1; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (char === 0x5d || char === 0x7d) depth -= 1;
  }
  return false;
}

/**
 * Parses the JSON body into `req.body`: reads at most 16 KiB, requires valid UTF-8, refuses
 * nesting deeper than {@link JSON_MAX_DEPTH} before parsing, then parses any JSON value (not only
 * objects and arrays) so a non-object is reported as `invalid_body`, not as bad JSON.
 */
export const parseJsonBody: RequestHandler = (req, res, next) => {
  readBody(req, res, (error?: unknown) => {
    if (error) {
      // Over the limit mid-stream: answer, and close rather than drain the rest.
      res.set('Connection', 'close');
      return next(error);
    }
    const bytes: unknown = req.body;
    if (!Buffer.isBuffer(bytes)) return next(new ApiError(400, 'invalid_json', 'The request body is not valid JSON.'));
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      return next(new ApiError(415, 'unsupported_media_type', 'The body must be JSON in UTF-8.'));
    }
    if (jsonNestingExceeds(text, JSON_MAX_DEPTH)) {
      return next(
        new ApiError(
          400,
          'invalid_body',
          `The request body nests arrays or objects deeper than ${JSON_MAX_DEPTH} levels.`,
        ),
      );
    }
    try {
      req.body = JSON.parse(text) as unknown;
    } catch {
      return next(new ApiError(400, 'invalid_json', 'The request body is not valid JSON.'));
    }
    next();
  });
};

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
