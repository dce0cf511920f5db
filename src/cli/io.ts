/**
 * What a command may touch of the outside world. Commands write through this rather than to
 * `process` so tests can run them in process and read what they printed.
 */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readonly env: NodeJS.ProcessEnv;
  now(): number;
  /** Aborted on SIGINT/SIGTERM: long-running commands (`events tail --follow`) end cleanly. */
  readonly signal: AbortSignal;
}

/**
 * The real process. The signal handlers are installed only when a command asks for the signal:
 * `serve` never does, so the service's own graceful shutdown keeps SIGINT/SIGTERM to itself.
 */
export function processIo(): CliIo {
  let controller: AbortController | undefined;
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    env: process.env,
    now: Date.now,
    get signal() {
      if (!controller) {
        const c = new AbortController();
        const stop = () => {
          c.abort();
          // A command stuck on I/O still ends; one that finishes in time exits with its own code.
          setTimeout(() => process.exit(130), 2_000).unref();
        };
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
        controller = c;
      }
      return controller.signal;
    },
  };
}
