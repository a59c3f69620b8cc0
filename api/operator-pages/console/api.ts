// The console's calls to the API: the token the user typed, as a bearer header, and the channel
// "console" so the audit trail says where a change came from. Relative URLs: the page lives at
// /v1/console on the API's own origin (the host refuses it), so `access/me` is /v1/access/me.

/** A refusal or failure, with the API's own message (its documented JSON error) when it sent one. */
export class ApiRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function callApi<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        authorization: `Bearer ${token}`,
        'sg-channel': 'console',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiRefusal(0, 'unreachable', 'The API could not be reached. Check the connection and try again.');
  }
  // An empty or non-JSON body (a proxy's error page) reads as undefined.
  const parsed: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    throw new ApiRefusal(
      response.status,
      typeof error?.code === 'string' ? error.code : 'http_error',
      typeof error?.message === 'string' ? error.message : `The API answered HTTP ${response.status}.`,
    );
  }
  return parsed as T;
}
