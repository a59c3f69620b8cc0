import { REMOTE_NAME_PATTERN } from '@special-gift/shared/builds';
import type { Request } from 'express';
import { ApiError } from './api-error';
import { isJsonObject } from './json-body';

function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

export interface StringRule {
  readonly pattern?: RegExp;
  readonly max?: number;
  readonly optional?: boolean;
}

/** Reads the fields of a JSON body, answering a bad one with `invalid(message)` (each domain its own code). */
export function bodyFields(invalid: (message: string) => ApiError) {
  function readString(body: Record<string, unknown>, name: string, rule?: StringRule & { optional?: false }): string;
  function readString(body: Record<string, unknown>, name: string, rule: StringRule): string | undefined;
  function readString(
    body: Record<string, unknown>,
    name: string,
    { pattern, max = 200, optional = false }: StringRule = {},
  ): string | undefined {
    const value = body[name];
    if (value === undefined && optional) return undefined;
    // No control characters: these end up in a terminal (history tables) and in logs.
    if (typeof value !== 'string' || value.length > max || hasControlCharacter(value))
      throw invalid(`\`${name}\` must be a string of at most ${max} characters, without control characters.`);
    if (pattern && !pattern.test(value)) throw invalid(`\`${name}\` is not valid: ${JSON.stringify(value)}.`);
    return value;
  }

  function readInteger(body: Record<string, unknown>, name: string, min: number, max: number): number;
  function readInteger(
    body: Record<string, unknown>,
    name: string,
    min: number,
    max: number,
    optional: boolean,
  ): number | undefined;
  function readInteger(
    body: Record<string, unknown>,
    name: string,
    min: number,
    max: number,
    optional = false,
  ): number | undefined {
    const value = body[name];
    if (value === undefined && optional) return undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)
      throw invalid(`\`${name}\` must be an integer from ${min} to ${max}.`);
    return value;
  }

  return { readString, readInteger };
}

export function jsonObject(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (!isJsonObject(body)) throw new ApiError(400, 'invalid_body', 'The request body must be a JSON object.');
  return body;
}

/** `?limit=` from 1 to 1000, `fallback` when absent. */
export function queryLimit(req: Request, fallback: number, invalid: (message: string) => ApiError): number {
  const limit = req.query.limit;
  if (limit === undefined) return fallback;
  if (typeof limit !== 'string' || !/^[0-9]{1,4}$/.test(limit) || Number(limit) < 1 || Number(limit) > 1000)
    throw invalid('`limit` must be an integer from 1 to 1000.');
  return Number(limit);
}

/** The `:remote` of the path. */
export function remoteParam(req: Request, invalid: (message: string) => ApiError): string {
  const remote = req.params.remote;
  if (typeof remote !== 'string' || !REMOTE_NAME_PATTERN.test(remote))
    throw invalid('The remote must be a name like `signup` (a-z, 0-9, -).');
  return remote;
}
