import express, { type RequestHandler } from 'express';
import { ApiError } from './api-error';

export const JSON_BODY_LIMIT_BYTES = 16 * 1024;

/** 415 unless the body is declared `application/json` (a charset parameter is fine; `+json` types are not). */
export const requireJsonContentType: RequestHandler = (req, _res, next) => {
  next(req.is('application/json') ? undefined : new ApiError(415, 'unsupported_media_type', 'Send the body as application/json.'));
};

/**
 * Parses the JSON body, at most 16 KiB. Any JSON value is parsed (not only objects and arrays) so a
 * non-object is reported as `invalid_body`, not as bad JSON. Compressed bodies are refused: the
 * limit must bound what we actually process.
 */
export const parseJsonBody: RequestHandler = express.json({ limit: JSON_BODY_LIMIT_BYTES, strict: false, inflate: false, type: 'application/json' });

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
