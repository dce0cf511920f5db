/**
 * Finish reasons in one vocabulary, so sessions can see a max-tokens stop (a turn that
 * was cut, not finished) whatever the provider calls it. Unknown words pass through.
 */

const VENDOR_A = new Map<string, string>([
  ["stop", "stop"],
  ["length", "max_tokens"],
  ["tool_calls", "tool_calls"],
  ["function_call", "tool_calls"],
  ["content_filter", "content_filter"],
]);

const VENDOR_B = new Map<string, string>([
  ["end_turn", "stop"],
  ["stop_sequence", "stop"],
  ["max_tokens", "max_tokens"],
  ["tool_use", "tool_calls"],
  ["refusal", "refusal"],
  ["pause_turn", "pause"],
]);

export function vendorAFinish(raw: string): string {
  return VENDOR_A.get(raw) ?? raw;
}

export function vendorBFinish(raw: string): string {
  return VENDOR_B.get(raw) ?? raw;
}
