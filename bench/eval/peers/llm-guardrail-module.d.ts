/** The part of llm_guardrail@2.1.2 (plain JavaScript, no types) that the peer adapter calls. */
declare module "llm_guardrail" {
  export interface CheckResult {
    readonly allowed: boolean;
    readonly detected: boolean;
    readonly prediction: 0 | 1;
    readonly confidence: number;
    readonly probabilities: { readonly safe: number; readonly threat: number };
  }
  export function checkInjection(prompt: string): Promise<CheckResult>;
  export function checkJailbreak(prompt: string): Promise<CheckResult>;
  export function checkMalicious(prompt: string): Promise<CheckResult>;
}
