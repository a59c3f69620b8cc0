import type { ApiErrorBody, ApiErrorCode } from '@special-gift/shared/api';
import type { Response } from 'express';

type FieldCodes = ApiErrorBody['error']['fields'];
type Problems = ApiErrorBody['error']['problems'];

/** Thrown (or passed to `next`) by handlers; the error handler turns it into the JSON error response. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly fields?: FieldCodes,
    readonly problems?: Problems,
  ) {
    super(message);
  }
}

export function errorBody(code: ApiErrorCode, message: string, fields?: FieldCodes, problems?: Problems): ApiErrorBody {
  return { error: { code, message, ...(fields ? { fields } : {}), ...(problems ? { problems } : {}) } };
}

export function sendError(res: Response, error: ApiError): void {
  res.status(error.status).json(errorBody(error.code, error.message, error.fields, error.problems));
}
