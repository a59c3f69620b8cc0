import type { ServerResponse } from 'node:http';
import { OPERATOR_PAGE_PREFIXES, OPERATOR_PAGE_REFUSED } from '@special-gift/shared/api';

/**
 * Mounted at `/api` before a local server's proxy to the API (tooling/serve, the webpack dev
 * servers), as the host's nginx does: the operator pages stay on the API's own origin, where no
 * remote's script can read the token they keep in sessionStorage (docs/console.md). Node's types,
 * not express's: the dev server brings an express of its own.
 */
export function refuseOperatorPages(req: { readonly path: string }, res: ServerResponse, next: () => void): void {
  if (!OPERATOR_PAGE_PREFIXES.some((prefix) => req.path.startsWith(prefix))) return next();
  const body = JSON.stringify(OPERATOR_PAGE_REFUSED);
  res.writeHead(404, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}
