import { type ContentKind, prose, toolOutput } from "./content.js";
import { type Random, HEX } from "./random.js";
import { dangerousCommand, injection, personalData, RATES, secret } from "./sprinkles.js";
import { SYSTEM_PROMPT_HEAD, TOOLS, type ToolSpec } from "./tools.js";

/**
 * One agent session, independent of any provider's wire shape: what the model said and called
 * at each step and what the tools answered. The renderers turn it into vendor_a.chat,
 * vendor_b.messages or canonical bodies, so the three protocols carry the same content.
 */

export type Protocol = "vendor_a.chat" | "vendor_b.messages" | "canonical";

export interface ToolCallModel {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  /** What the tool answered; it travels in the next step's request. */
  readonly result: string;
}

export interface StepModel {
  /** The model's prose at this step (short while working, longer at the end). */
  readonly text: string;
  readonly reasoning: string;
  /** Empty on the final step, which ends the session with an answer. */
  readonly calls: readonly ToolCallModel[];
}

export interface SessionModel {
  readonly id: string;
  readonly protocol: Protocol;
  readonly agentId: string;
  readonly model: string;
  readonly system: string;
  readonly tools: readonly ToolSpec[];
  readonly instruction: string;
  readonly steps: readonly StepModel[];
}

export interface SessionShape {
  readonly steps: number;
  /** Bounds of one tool result, in bytes (log-uniform in between). */
  readonly resultBytes: { readonly min: number; readonly max: number };
}

const MODELS: Record<Protocol, string> = {
  "vendor_a.chat": "model-a-large-2025-01",
  "vendor_b.messages": "model-b-opus-4",
  canonical: "in-house-router-v3",
};

const SAFE_COMMANDS = [
  "npm test -- --reporter=dot",
  "git status --short",
  "git log --oneline -n 50",
  "ls -la src",
  "npx tsc --noEmit",
  "grep -rn 'TODO' src | head -n 200",
  "docker compose logs --tail=400 api",
];

const CALL_KIND: Record<string, ContentKind> = {
  read_file: "code",
  write_file: "log",
  run_shell: "log",
  web_fetch: "html",
  http_get_json: "json",
};

function argsFor(rng: Random, name: string): Record<string, unknown> {
  switch (name) {
    case "read_file":
      return { path: `src/${rng.pick(["orders", "billing", "auth", "reports"])}/${rng.pick(["index", "service", "store"])}.ts` };
    case "write_file":
      return { path: `src/patch-${rng.chars(HEX, 4)}.ts`, contents: prose(rng, rng.int(2, 8)) };
    case "run_shell":
      return { command: rng.chance(RATES.dangerousPerShellCall) ? dangerousCommand(rng) : rng.pick(SAFE_COMMANDS) };
    case "web_fetch":
      return { url: `https://docs.${rng.pick(["vendor", "framework", "cloud"])}.example/guide/${rng.int(1, 400)}` };
    default:
      return { url: `https://api.internal.example/v2/${rng.pick(["orders", "customers", "invoices"])}?page=${rng.int(1, 50)}` };
  }
}

function resultFor(rng: Random, name: string, shape: SessionShape): string {
  const plants: string[] = [];
  if (rng.chance(RATES.secretPerToolResult)) plants.push(secret(rng));
  if (rng.chance(RATES.piiPerToolResult)) plants.push(personalData(rng));
  if (rng.chance(RATES.injectionPerToolResult)) plants.push(injection(rng));
  const bytes = rng.logUniform(shape.resultBytes.min, shape.resultBytes.max);
  return toolOutput(rng, CALL_KIND[name] ?? "json", bytes, plants);
}

function workingStep(rng: Random, shape: SessionShape): StepModel {
  const calls: ToolCallModel[] = [];
  const count = rng.chance(0.15) ? 2 : 1;
  for (let i = 0; i < count; i++) {
    const name = rng.pick(TOOLS).name;
    calls.push({ id: `call_${rng.chars(HEX, 24)}`, name, args: argsFor(rng, name), result: resultFor(rng, name, shape) });
  }
  return { text: prose(rng, rng.int(1, 3)), reasoning: prose(rng, rng.int(2, 6)), calls };
}

function finalStep(rng: Random): StepModel {
  const answer = prose(rng, rng.int(4, 12));
  const text = rng.chance(RATES.piiPerFinalAnswer) ? `${answer} ${personalData(rng)}` : answer;
  return { text, reasoning: prose(rng, rng.int(2, 6)), calls: [] };
}

/** Builds the session `index` of a corpus; all randomness comes from `rng`. */
export function buildSession(rng: Random, index: number, protocol: Protocol, shape: SessionShape): SessionModel {
  const steps: StepModel[] = [];
  for (let k = 1; k < shape.steps; k++) steps.push(workingStep(rng, shape));
  steps.push(finalStep(rng));
  return {
    id: `sess-${String(index).padStart(4, "0")}`,
    protocol,
    agentId: `bench-agent-${index}`,
    model: MODELS[protocol],
    system: `${SYSTEM_PROMPT_HEAD}\n\n${prose(rng, rng.int(10, 30))}`,
    tools: TOOLS,
    instruction: prose(rng, rng.int(1, 4)),
    steps,
  };
}
