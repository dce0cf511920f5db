import type { SessionModel } from "../session.js";

/** What an agent puts in place of tool output it dropped to stay inside its context window. */
export const CLEARED = "[tool output cleared to save context; re-run the tool to see it again]";

/**
 * The tool results a request at step `k` (0-based) re-sends, per earlier step and call. Real
 * agents re-send the whole conversation every step but clear the oldest tool output once the
 * context fills up; without that a 200-step session would send bodies of several megabytes,
 * which no provider accepts. Results are kept newest first until `budgetBytes` is spent.
 */
export function visibleResults(session: SessionModel, k: number, budgetBytes: number): string[][] {
  const visible: string[][] = [];
  let spent = 0;
  for (let j = k - 1; j >= 0; j--) {
    const calls = session.steps[j]?.calls ?? [];
    visible[j] = calls.map((call) => {
      spent += call.result.length;
      return spent <= budgetBytes ? call.result : CLEARED;
    });
  }
  return visible;
}
