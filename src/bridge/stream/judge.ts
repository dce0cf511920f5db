import { GuardError } from "../../errors/guard-error.js";
import type { Evaluation } from "../../pipeline/evaluate.js";

/**
 * The verdict of a streamed evaluate, waited for with a deadline and the client's signal.
 *
 * A missing verdict (the pipeline failed, or took longer than `timeoutMs`) is not an error
 * of the request: it is what `guard-fail-mode` prices. A refusal of the event itself (a 4xx
 * GuardError, such as `identity_refused`) is not an outage and is reported as such. When the
 * client goes away first the result is discarded: the evaluation finishes and records on its
 * own, and nothing is waited for or written. Timer and listener are removed on every path.
 */
export type Judgement =
  | { readonly kind: "verdict"; readonly evaluation: Evaluation }
  | { readonly kind: "missing"; readonly reason: "error" | "timeout" }
  | { readonly kind: "refused"; readonly error: GuardError }
  | { readonly kind: "aborted" };

export function judge(run: Promise<Evaluation>, timeoutMs: number, signal: AbortSignal): Promise<Judgement> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (judgement: Judgement) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(judgement);
    };
    const onAbort = () => settle({ kind: "aborted" });
    const timer = setTimeout(() => settle({ kind: "missing", reason: "timeout" }), timeoutMs);
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) onAbort();
    run.then(
      (evaluation) => settle({ kind: "verdict", evaluation }),
      (error: unknown) =>
        settle(
          error instanceof GuardError && error.status < 500
            ? { kind: "refused", error }
            : { kind: "missing", reason: "error" },
        ),
    );
  });
}
