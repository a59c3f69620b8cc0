import { SRI_PATTERN } from '@special-gift/shared/composition';
import type { Request } from 'express';
import { ApiError } from '../http/api-error';
import { isJsonObject } from '../http/json-body';
import { bodyFields, queryLimit, remoteParam } from '../http/request-fields';

export const BUILD_ID = /^[0-9a-f]{12}$/;
export const HISTORY_LIMIT = 50;

export const invalid = (message: string) => new ApiError(422, 'invalid_release_request', message);
export const { readString, readInteger } = bodyFields(invalid);
export const remoteOf = (req: Request) => remoteParam(req, invalid);
export const historyLimit = (req: Request) => queryLimit(req, HISTORY_LIMIT, invalid);

const BUILD_PATH = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/** The `integrity` of a registration: the SRI value of each file a browser may load, `remoteEntry.js` among them. */
export function readIntegrity(body: Record<string, unknown>): Record<string, string> {
  const value = body.integrity;
  const message =
    '`integrity` must map each file a browser may load (relative path, `remoteEntry.js` among them, at most ' +
    '10000) to its sha384 SRI value (`sha384-` and 64 base64 characters).';
  if (!isJsonObject(value)) throw invalid(message);
  const entries = Object.entries(value);
  if (entries.length > 10_000 || !('remoteEntry.js' in value)) throw invalid(message);
  for (const [path, sri] of entries)
    if (
      path.length > 300 ||
      !BUILD_PATH.test(path) ||
      path.split('/').includes('..') ||
      typeof sri !== 'string' ||
      !SRI_PATTERN.test(sri)
    )
      throw invalid(message);
  return value as Record<string, string>;
}
