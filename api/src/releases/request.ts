import type { BuildFootprint } from '@special-gift/shared/api';
import { SRI_PATTERN } from '@special-gift/shared/composition';
import type { Request } from 'express';
import { ApiError } from '../http/api-error';
import { isJsonObject } from '../http/json-body';
import { bodyFields, queryLimit, remoteParam } from '../http/request-fields';

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

/** A package name as npm allows it (`react`, `@special-gift/shared`, `react-dom/client`), and a version string. */
const SHARED_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(\/[a-z0-9._~-]+)*$/;
const SHARED_VERSION = /^[0-9A-Za-z.+^~<>=*|_ -]{1,64}$/;
const MAX_BUILD_BYTES = 2_000_000_000;

/**
 * The optional footprint of a registration (migration 9): entry and first-screen bytes and the
 * shared libraries' versions. Each absent one stays unrecorded (null), as for an older publisher.
 */
export function readFootprint(body: Record<string, unknown>): Partial<BuildFootprint> {
  const footprint: { -readonly [K in keyof BuildFootprint]?: BuildFootprint[K] } = {};
  if (body.entryBytes !== undefined) footprint.entryBytes = readInteger(body, 'entryBytes', 0, MAX_BUILD_BYTES);
  if (body.firstScreenBytes !== undefined)
    footprint.firstScreenBytes = readInteger(body, 'firstScreenBytes', 0, MAX_BUILD_BYTES);
  const shared = body.sharedVersions;
  if (shared !== undefined) {
    const entries = isJsonObject(shared) ? Object.entries(shared) : [];
    if (
      !isJsonObject(shared) ||
      entries.length > 200 ||
      !entries.every(
        ([name, version]) =>
          name.length <= 214 && SHARED_NAME.test(name) && typeof version === 'string' && SHARED_VERSION.test(version),
      )
    )
      throw invalid(
        '`sharedVersions` must map at most 200 package names (as npm spells them) to their version strings (at most 64 characters).',
      );
    footprint.sharedVersions = Object.fromEntries(
      [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ) as Record<string, string>;
  }
  return footprint;
}
