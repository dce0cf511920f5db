import type { System } from "../system.js";

/**
 * The peers compared with Guard: packages from npm (devDependencies) that detect some of the
 * same categories and run locally. Each adapter is loaded on its own, so a peer whose package
 * is missing or broken is reported as unavailable and the run goes on without it.
 */

export const PEER_NAMES = ["secretlint", "openai-guardrails", "llm_guardrail", "vard"] as const;

const ADAPTERS: Readonly<Record<(typeof PEER_NAMES)[number], () => Promise<{ system: System }>>> = {
  secretlint: () => import("./secretlint.js"),
  "openai-guardrails": () => import("./openai-guardrails.js"),
  llm_guardrail: () => import("./llm-guardrail.js"),
  vard: () => import("./vard.js"),
};

export interface LoadedPeers {
  readonly systems: System[];
  /** Peers that could not be loaded, with the reason. */
  readonly unavailable: { readonly name: string; readonly reason: string }[];
}

/** Loads the named peers (all by default). */
export async function loadPeers(names: readonly string[] = PEER_NAMES): Promise<LoadedPeers> {
  const systems: System[] = [];
  const unavailable: { name: string; reason: string }[] = [];
  for (const name of names) {
    const adapter = ADAPTERS[name as (typeof PEER_NAMES)[number]];
    if (adapter === undefined) {
      unavailable.push({ name, reason: `unknown peer (known: ${PEER_NAMES.join(", ")})` });
      continue;
    }
    try {
      systems.push((await adapter()).system);
    } catch (error) {
      unavailable.push({ name, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { systems, unavailable };
}
