import type { GuardClient } from "./guard-client.js";

/**
 * Sends a heartbeat on a timer (spec 4.2): it registers the agent while idle, declares the
 * cadence so the service can notice missed beats, and carries the counters that reveal
 * degraded mode. The timer is unref'd so an idle agent process can still exit; a failed beat
 * is simply lost, because the next one carries the same cumulative counters.
 */
export class HeartbeatTimer {
  readonly #client: GuardClient;
  readonly #agentId: string;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<boolean> | undefined;

  constructor(client: GuardClient, agentId: string, intervalMs: number) {
    this.#client = client;
    this.#agentId = agentId;
    this.#intervalMs = intervalMs;
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.beat(), this.#intervalMs);
    this.#timer.unref();
  }

  /** One beat now; overlapping beats are folded into the one already on its way. */
  beat(): Promise<boolean> {
    this.#inFlight ??= this.#client.heartbeat(this.#agentId, this.#intervalMs / 1000).finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  /** Stops the timer and sends a last beat, so the final counters are not lost. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.beat();
  }
}
