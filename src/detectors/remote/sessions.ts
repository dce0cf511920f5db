import { Http2SessionManager } from "@connectrpc/connect-node";

/**
 * HTTP/2 sessions to remote detectors, one per origin. connect-node keeps a session open for
 * 15 minutes after its last call: sharing one per origin keeps a detector to one connection
 * however many calls run at once, and `close()` aborting them all is what lets a process (or
 * a test run) exit instead of hanging on idle sockets.
 */
export class SessionPool {
  private readonly managers = new Map<string, Http2SessionManager>();
  private closed = false;

  /** The session manager for a base URL's origin, created on first use. */
  sessionFor(baseUrl: string): Http2SessionManager {
    if (this.closed) throw new Error("the HTTP/2 session pool is closed");
    const origin = new URL(baseUrl).origin;
    let manager = this.managers.get(origin);
    if (!manager) {
      manager = new Http2SessionManager(origin);
      this.managers.set(origin, manager);
    }
    return manager;
  }

  /** Aborts every session; calls in flight reject, and the pool hands out no more. */
  close(): void {
    this.closed = true;
    for (const manager of this.managers.values()) manager.abort();
    this.managers.clear();
  }
}
