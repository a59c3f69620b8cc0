export const XSRF_COOKIE_NAME = 'XSRF-TOKEN';
export const XSRF_HEADER_NAME = 'X-XSRF-TOKEN';

/**
 * Reads a cookie from a `document.cookie` string or a `Cookie` request header, as Angular's
 * HttpXsrfCookieExtractor does (trimmed name, URI-decoded value); the API uses it too.
 */
export function readCookie(cookieString: string, name: string): string | null {
  const encodedName = encodeURIComponent(name);
  for (const part of cookieString.split(';')) {
    const separator = part.indexOf('=');
    if (separator === -1) continue; // not a name=value pair
    const key = part.slice(0, separator).trim();
    if (key === encodedName) {
      try {
        return decodeURIComponent(part.slice(separator + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/**
 * Whether a request gets the XSRF header: mutating methods only, and only to our own origin, so the
 * token never leaks to another site (what current Angular does; older versions only skipped http(s)://).
 */
export function needsXsrfHeader(method: string, url: string, origin: string): boolean {
  const upper = method.toUpperCase();
  if (upper === 'GET' || upper === 'HEAD') return false;
  try {
    return new URL(url, origin).origin === origin;
  } catch {
    return false;
  }
}
