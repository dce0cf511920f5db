import { vard } from "@andersmyrmel/vard";
import type { System } from "../system.js";

/**
 * vard (npm `@andersmyrmel/vard`): pattern-based prompt-injection detection. Its `moderate`
 * preset (the default, threshold 0.7) with every threat type set to block, so a threat the
 * preset would only sanitise (delimiter injection, encoding) still counts as a detection, and
 * the 10,000-character input limit lifted, so length alone is never a finding. Every threat
 * type (instruction override, role manipulation, delimiter injection, system-prompt leak,
 * encoding) maps to `security.prompt_injection`; vard claims no jailbreak category.
 */

const checker = vard
  .moderate()
  .block("delimiterInjection")
  .block("encoding")
  .maxLength(Number.MAX_SAFE_INTEGER);

export function findInjection(text: string): string[] {
  return checker.safeParse(text).safe ? [] : ["security.prompt_injection"];
}

export const system: System = {
  name: "vard",
  version: "@andersmyrmel/vard@1.2.0",
  how: "`vard.moderate()` with every threat type on block and no length limit, `safeParse`; any threat is `security.prompt_injection`",
  scope: "covered",
  checks: [
    {
      name: "injection",
      categories: ["security.prompt_injection"],
      run: ({ sample }) => findInjection(sample.text),
    },
  ],
};
