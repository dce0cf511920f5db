import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import type { Analysis, Invocation } from "../shell/analyze.js";
import { WordFact } from "../shell/word-facts.js";
import { ruleModule, Trait } from "./dispatch.js";
import { type Hit, hitOn, operands, optionValue, pushHit } from "./types.js";
import { gradedHit, targetTier, tierWord } from "./targets.js";

/**
 * Infrastructure-as-code and container commands: `terraform destroy` of a whole stack, and
 * containers that mine cryptocurrency. A destroy aimed at a few resources (`-target=`) or run
 * in a preview workspace is routine clean-up; one in a workspace, var file or directory named
 * production is not (see targets.ts).
 */

const TERRAFORM = ["terraform", "tofu", "terragrunt"];

/** Workspaces selected by `terraform workspace select|new NAME` anywhere in the text. */
function selectedWorkspaces(analysis: Analysis): string[] {
  const out: string[] = [];
  for (const inv of analysis.invocations) {
    if (!TERRAFORM.includes(inv.name)) continue;
    const ops = operands(inv.args);
    if (ops[0] === "workspace" && (ops[1] === "select" || ops[1] === "new") && ops[2] !== undefined)
      out.push(ops[2]);
  }
  return out;
}

/**
 * The selected workspaces of one analysis, found when a `terraform` command first asks: the
 * pass over every command that finding them takes is spared the many texts without one.
 */
class Workspaces {
  private found: readonly string[] | undefined;

  constructor(private readonly analysis: Analysis) {}

  get(): readonly string[] {
    if (this.found === undefined) this.found = selectedWorkspaces(this.analysis);
    return this.found;
  }
}

function terraformDestroy(inv: Invocation, workspaces: readonly string[]): Hit | undefined {
  const ops = operands(inv.args);
  const destroy =
    ops[0] === "destroy" ||
    ((ops[0] === "apply" || ops[0] === "plan") &&
      (inv.args.includes("-destroy") || inv.args.includes("--destroy")));
  if (!destroy) return undefined;
  const context: string[] = [...workspaces];
  for (const a of inv.args)
    if (a.startsWith("-var-file") || a.startsWith("-chdir") || a.startsWith("-state")) context.push(a);
  for (const a of inv.assignments)
    if (a.startsWith("TF_WORKSPACE=") || a.startsWith("TF_VAR_env")) context.push(a);
  const targeted = inv.args.some((a) => a.startsWith("-target") || a.startsWith("--target"));
  const tier = targetTier(context);
  return gradedHit(
    inv,
    "terraform-destroy",
    tier,
    targeted ? undefined : Severity.MEDIUM,
    0.75,
    `${inv.name} destroys ${targeted ? "resources of" : "every resource in"} a ${tierWord(tier)}stack`,
  );
}

/** Miner programs, as image names or commands. */
const MINER_NAMES =
  /(^|[/_-])(xmrig|xmr-stak|cpuminer|minerd|ccminer|nbminer|t-rex|lolminer|phoenixminer|ethminer|nanominer|srbminer|cgminer|bfgminer|miner)([:@_-]|$)/;
/** Mining pool URLs. */
const STRATUM = /^stratum[0-9]?(\+(tcp|ssl|tls))?:\/\//i;
/** Options only miners take. */
const MINER_OPTIONS =
  /^--(donate-level|cpu-max-threads-hint|randomx|coin=monero|algo=(rx|randomx|cn|cryptonight|ethash|kawpow))/;

export const minerPatterns: readonly RegExp[] = [MINER_NAMES, STRATUM, MINER_OPTIONS];

const MINER_PROGRAMS = [
  "xmrig",
  "xmr-stak",
  "cpuminer",
  "minerd",
  "ccminer",
  "nbminer",
  "t-rex",
  "lolminer",
  "phoenixminer",
  "ethminer",
  "nanominer",
  "srbminer",
  "cgminer",
  "bfgminer",
];

const CONTAINER_RUNNERS = ["docker", "podman", "nerdctl", "kubectl", "oc"];

const NO_OPERANDS: readonly string[] = [];

/** A container or program that mines cryptocurrency: a miner image, a stratum URL, a miner's flags. */
function miner(inv: Invocation): Hit | undefined {
  // Container runners first: the operands are read only for them, while any command with a slash comes here.
  const named = CONTAINER_RUNNERS.includes(inv.name);
  const ops = named ? operands(inv.args) : NO_OPERANDS;
  if (named && (ops[0] === "run" || ops[0] === "create")) {
    const image =
      inv.name === "kubectl" || inv.name === "oc" ? optionValue(inv.args, ["--image"]) : undefined;
    const candidates = image !== undefined ? [image] : ops.slice(1, 3);
    if (candidates.some((c) => MINER_NAMES.test(c.toLowerCase()))) {
      return hitOn(inv, "crypto-miner", Severity.HIGH, 0.85, "runs a cryptocurrency miner image");
    }
  }
  if (MINER_PROGRAMS.includes(inv.name)) {
    return hitOn(inv, "crypto-miner", Severity.HIGH, 0.8, "runs a cryptocurrency miner");
  }
  // Miner options count on the programs that start miners; a pool URL, which has a colon, on any command.
  return inv.argWords.some((w) => (w.facts & WordFact.colon) !== 0 && STRATUM.test(w.text)) ||
    (named && inv.args.some((a) => MINER_OPTIONS.test(a)))
    ? hitOn(inv, "crypto-miner", Severity.HIGH, 0.85, "connects to a cryptocurrency mining pool")
    : undefined;
}

export const infrastructure = ruleModule({
  name: "infrastructure",
  prepare: (analysis) => new Workspaces(analysis),
  commands: [
    {
      programs: TERRAFORM,
      check(inv, hits, workspaces) {
        if (TERRAFORM.includes(inv.name)) pushHit(hits, terraformDestroy(inv, workspaces.get()));
      },
    },
    // Stratum URLs hold a slash; miner options and images are judged on the programs that run them.
    {
      programs: [...CONTAINER_RUNNERS, ...MINER_PROGRAMS],
      traits: [Trait.slash],
      check: (inv, hits) => pushHit(hits, miner(inv)),
    },
  ],
});
