import type { Server } from 'node:http';
import net, { type Socket } from 'node:net';

interface ConnectionState {
  /** Requests on it that have not been answered yet. */
  busy: number;
  /** When it last received a byte or finished an answer (ms, from the drain's start only). */
  lastActive: number;
}

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

// How often a drain looks for connections that have gone quiet.
const SWEEP_EVERY_MS = 50;

export interface DrainOptions {
  /** A connection with no request in progress is closed once it has been quiet this long. */
  readonly idleCloseMs: number;
  /** After this, whatever is still open is cut. */
  readonly graceMs: number;
  /** Called once the listener is closed, before any connection is: the moment answers start closing theirs. */
  readonly onListenerClosed: () => void;
}

/**
 * Knows every open connection of a server and whether a request is in progress on it, so that a
 * shutdown closes each connection at a moment its client is not using it.
 */
export class ConnectionTracker {
  readonly #connections = new Map<Socket, ConnectionState>();
  #watching = false;
  /** This process's own probe connection while one is in flight, and what to call when it arrives. */
  #probe: { readonly socket: Socket; readonly arrived: () => void } | undefined;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      if (this.#isProbe(socket)) return;
      this.#connections.set(socket, { busy: 0, lastActive: Date.now() });
      socket.once('close', () => this.#connections.delete(socket));
      if (this.#watching) this.#watch(socket);
    });
    server.on('request', (req, res) => {
      const state = this.#connections.get(req.socket);
      if (!state) return;
      state.busy += 1;
      res.once('close', () => {
        state.busy -= 1;
        state.lastActive = Date.now();
      });
    });
  }

  #isProbe(socket: Socket): boolean {
    const probe = this.#probe;
    // The probe's connect() has been made by the time the server accepts it, so its port is known.
    if (probe === undefined || socket.remotePort !== probe.socket.localPort || !isLoopback(socket.remoteAddress))
      return false;
    socket.destroy();
    probe.arrived();
    return true;
  }

  /**
   * Resolves once every connection the kernel had completed for this listener has been accepted:
   * the kernel queues them in order, so once a connection made now is accepted, all before it
   * are. A busy event loop (PGlite runs queries on it) accepts slowly, and closing the listener
   * resets whatever it still holds, requests already sent included. Bounded by `withinMs`.
   */
  async #acceptQueued(withinMs: number): Promise<void> {
    const address = this.server.address();
    if (address === null || typeof address === 'string') return;
    const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, withinMs);
      const probe = net.connect({ port: address.port, host });
      function done() {
        clearTimeout(timer);
        probe.destroy();
        resolve();
      }
      this.#probe = { socket: probe, arrived: done };
      probe.once('error', done);
    });
    this.#probe = undefined;
  }

  #watch(socket: Socket): void {
    socket.on('data', () => {
      const state = this.#connections.get(socket);
      if (state) state.lastActive = Date.now();
    });
  }

  /**
   * Stops accepting connections and closes the open ones without cutting a request: each answer
   * from then on closes its connection (`onListenerClosed`, see `closeConnectionsWhenDraining`),
   * and a connection with no request in progress is closed once it has been quiet for
   * `idleCloseMs`, counted from now (a client about to reuse it has had that long to do so). Not
   * Node's `server.close()`, which closes idle keep-alive connections at once, racing a client's
   * next request on them. Resolves with whether every connection closed within `graceMs`; past
   * it the rest are cut.
   */
  async drain({ idleCloseMs, graceMs, onListenerClosed }: DrainOptions): Promise<'drained' | 'grace over'> {
    // Answers do not close their connections yet, so no client reconnects meanwhile.
    await this.#acceptQueued(Math.min(graceMs, 5_000));
    this.#watching = true;
    const started = Date.now();
    for (const [socket, state] of this.#connections) {
      state.lastActive = started;
      this.#watch(socket);
    }
    const closed = new Promise<'drained'>((resolve) =>
      net.Server.prototype.close.call(this.server, () => resolve('drained')),
    );
    onListenerClosed();
    const quiet = (state: ConnectionState) => state.busy === 0 && Date.now() - state.lastActive >= idleCloseMs;
    const sweep = setInterval(() => {
      const candidates = [...this.#connections].filter(([socket, state]) => quiet(state) && !socket.writableEnded);
      // Checked again after the event loop's poll phase: a busy loop may not have read yet what a
      // client sent in the meantime, and closing a socket with unread data resets it.
      if (candidates.length > 0)
        setImmediate(() => candidates.forEach(([socket, state]) => quiet(state) && socket.end()));
    }, SWEEP_EVERY_MS);
    let graceTimer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace over'>(
      (resolve) => (graceTimer = setTimeout(() => resolve('grace over'), graceMs)),
    );
    const outcome = await Promise.race([closed, graceOver]);
    clearInterval(sweep);
    clearTimeout(graceTimer);
    if (outcome === 'grace over') {
      for (const socket of this.#connections.keys()) socket.destroy();
    }
    return outcome;
  }
}
