import type { CliIo } from "./io.js";

/** One line of `guard help`: how to call it, and what it does. */
export interface UsageLine {
  readonly synopsis: string;
  readonly summary: string;
}

/** A command group (`keys`, `events`, ...): its help lines and its entry point. */
export interface Command {
  readonly name: string;
  readonly usage: readonly UsageLine[];
  /** Arguments after the group name. Resolves to the exit code; `undefined` means keep running (`serve`). */
  run(args: readonly string[], io: CliIo): Promise<number | undefined>;
}
