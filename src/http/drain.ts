import type { RequestListener, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * A way out of serving that loses no request a client sent. Once draining, /readyz answers 503
 * (see `draining`), so a load balancer stops sending here, and every answer closes its
 * connection (`Connection: close`), so a keep-alive client opens a new one after its current
 * request instead of reusing one this process is about to close. The listener keeps accepting
 * for the drain window, then stops; the requests in flight finish; only then are the connections
 * left idle closed.
 */
export class Drain {
  #draining = false;
  readonly #inFlight = new Set<ServerResponse>();
  #settled: (() => void) | undefined;

  /** True from the start of the drain: the process answers what it is sent, but is not ready for more. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Wraps the app's request listener to count the requests in flight and close connections while draining. */
  listener(handle: RequestListener): RequestListener {
    return (request, response) => {
      if (this.#draining) response.shouldKeepAlive = false;
      this.#inFlight.add(response);
      response.once('close', () => this.#finished(response));
      handle(request, response);
    };
  }

  /**
   * Drains `server` and resolves once it has closed: answers close their connections from now on,
   * the listener accepts for `windowMs` more, then stops; once no request is in flight, the idle
   * connections are closed. Bound the wait from outside: a client may hold a request open.
   */
  async close(server: Server, windowMs: number): Promise<void> {
    this.#draining = true;
    for (const response of this.#inFlight) if (!response.headersSent) response.shouldKeepAlive = false;
    if (windowMs > 0) await delay(windowMs);
    // http.Server#close would also close the idle keep-alive connections at once (Node 19 on),
    // where a request may be on its way; net.Server#close only stops accepting.
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    await this.#noneInFlight();
    server.closeIdleConnections();
    await closed;
  }

  #finished(response: ServerResponse): void {
    this.#inFlight.delete(response);
    if (this.#inFlight.size === 0) this.#settled?.();
  }

  #noneInFlight(): Promise<void> {
    if (this.#inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#settled = resolve));
  }
}
