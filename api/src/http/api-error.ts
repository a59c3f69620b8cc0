import type { Response } from 'express';

/** The one error shape every error response has (api/openapi.yaml, `ErrorBody`). */
export interface ApiErrorBody {
  readonly error: {
    readonly code: string;
    /** Human-readable English, for logs and developers; clients switch on `code`. */
    readonly message: string;
    /** Per-field codes (`SignUpErrorCode`), when the error is about specific fields. */
    readonly fields?: Readonly<Record<string, string>>;
  };
}

/** Thrown (or passed to `next`) by handlers; the error handler turns it into the JSON error response. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}

export function errorBody(code: string, message: string, fields?: Readonly<Record<string, string>>): ApiErrorBody {
  return { error: fields ? { code, message, fields } : { code, message } };
}

export function sendError(res: Response, error: ApiError): void {
  res.status(error.status).json(errorBody(error.code, error.message, error.fields));
}
