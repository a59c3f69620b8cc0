import type { ApiErrorBody, ApiErrorCode } from '@special-gift/shared/api';
import type { Response } from 'express';

type FieldCodes = ApiErrorBody['error']['fields'];

/** Thrown (or passed to `next`) by handlers; the error handler turns it into the JSON error response. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly fields?: FieldCodes,
  ) {
    super(message);
  }
}

export function errorBody(code: ApiErrorCode, message: string, fields?: FieldCodes): ApiErrorBody {
  return { error: fields ? { code, message, fields } : { code, message } };
}

export function sendError(res: Response, error: ApiError): void {
  res.status(error.status).json(errorBody(error.code, error.message, error.fields));
}
