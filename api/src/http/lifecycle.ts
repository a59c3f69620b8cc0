import type { RequestHandler } from 'express';

/**
 * Where the process is in its stop, shared by readiness, the response headers and main.ts:
 * `stopping` (readiness fails, everything else is served as usual), then `draining` (the listener
 * is closed and every answer closes its connection).
 */
export class Lifecycle {
  #stopping = false;
  #draining = false;

  get stopping(): boolean {
    return this.#stopping;
  }

  get draining(): boolean {
    return this.#draining;
  }

  stop(): void {
    this.#stopping = true;
  }

  drain(): void {
    this.#stopping = true;
    this.#draining = true;
  }
}

/**
 * Once draining, every answer carries `Connection: close`: a keep-alive client is told, on its
 * last answer, to go elsewhere for the next request, and Node closes the socket cleanly after that
 * answer instead of the client finding it reset. Not before: while readiness alone fails, clients
 * keep their connections, so none reconnects to a listener about to close.
 */
export function closeConnectionsWhenDraining(lifecycle: Lifecycle): RequestHandler {
  return (_req, res, next) => {
    if (lifecycle.draining) res.set('Connection', 'close');
    next();
  };
}
