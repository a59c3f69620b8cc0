/** An error's message; for fetch's "fetch failed", the network error under it (ECONNREFUSED...). */
export function describeError(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  // Duck-typed: errors from another realm (a test's VM) are no `instanceof Error` here.
  const { message, cause } = error as { message?: unknown; cause?: { message?: unknown; code?: unknown } };
  const inner = cause && typeof cause === 'object' ? (cause.message ?? cause.code) : undefined;
  return typeof inner === 'string' && inner !== '' ? inner : String(message ?? error);
}
