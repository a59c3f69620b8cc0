import type { RequestHandler } from 'express';

/** Whether the process is shutting down; shared by readiness, the response headers and main.ts. */
export class Lifecycle {
  #stopping = false;

  get stopping(): boolean {
    return this.#stopping;
  }

  stop(): void {
    this.#stopping = true;
  }
}

/**
 * Once shutting down, every answer carries `Connection: close`, so each keep-alive client is
 * told, on its last answer, to go elsewhere for the next request, and Node closes the socket
 * cleanly after that answer instead of the client finding it reset.
 */
export function closeConnectionsWhenStopping(lifecycle: Lifecycle): RequestHandler {
  return (_req, res, next) => {
    if (lifecycle.stopping) res.set('Connection', 'close');
    next();
  };
}
