import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import type { Invocation } from "../shell/analyze.js";
import { ruleModule } from "./dispatch.js";
import { commandWords, type Hit, hitOn, optionValue, pushHit } from "./types.js";
import { gradedHit, Tier, targetTier, tierWord } from "./targets.js";

/**
 * Kubernetes and Helm commands that destroy a scope, grant cluster-wide control, remove a
 * security agent or start a pod that escapes to its node. Deleting a stuck pod, a finished job
 * or a preview namespace is routine and stays unmatched; what counts is the scope (every
 * namespace, a whole namespace, persistent volumes) and the names of the targets (see
 * targets.ts).
 */

const KUBECTL = ["kubectl", "oc"];

/** Namespaces the cluster itself runs in. */
const SYSTEM_NAMESPACES: ReadonlySet<string> = new Set(["kube-system", "kube-public", "kube-node-lease"]);

/** Runtime security, audit and admission-policy agents, by release, workload or namespace name. */
const SECURITY_AGENTS: ReadonlySet<string> = new Set([
  "falco",
  "falcosidekick",
  "tetragon",
  "tracee",
  "sysdig",
  "sysdig-agent",
  "aqua",
  "aqua-enforcer",
  "twistlock",
  "twistlock-defender",
  "prisma-cloud",
  "falcon",
  "falcon-sensor",
  "crowdstrike",
  "wazuh",
  "wazuh-agent",
  "neuvector",
  "stackrox",
  "gatekeeper",
  "gatekeeper-system",
  "kyverno",
  "sentinelone",
  "qualys",
  "trivy-operator",
  "kubearmor",
]);

const DATA_KINDS: ReadonlySet<string> = new Set([
  "pvc",
  "pvcs",
  "persistentvolumeclaim",
  "persistentvolumeclaims",
  "pv",
  "pvs",
  "persistentvolume",
  "persistentvolumes",
  "statefulset",
  "statefulsets",
  "sts",
]);
const NAMESPACE_KINDS: ReadonlySet<string> = new Set([
  "namespace",
  "namespaces",
  "ns",
  "project",
  "projects",
]);
/** Kinds whose `--all` only restarts or cleans up: controllers recreate pods, jobs are done. */
const DISPOSABLE_KINDS: ReadonlySet<string> = new Set([
  "pod",
  "pods",
  "po",
  "job",
  "jobs",
  "event",
  "events",
  "ev",
  "replicaset",
  "replicasets",
  "rs",
  "cronjob",
  "cronjobs",
]);

const NAMESPACE_OPTION = ["-n", "--namespace"];

/** Options of kubectl and helm, global ones included, whose value is the next word. */
const VALUE_OPTIONS: ReadonlySet<string> = new Set(
  "-n --namespace --context --kube-context --kubeconfig --cluster --user -l --selector -o --output -f --filename -c --container --field-selector -s --server --token --as --as-group --image --overrides --duration --clusterrole --role --serviceaccount --group --timeout".split(
    " ",
  ),
);

/** The subcommand and its operands, up to `--` (after it, `exec`'s command in the container). */
function kubectlWords(args: readonly string[]): string[] {
  return commandWords(args, VALUE_OPTIONS, { untilDashes: true });
}

function allNamespaces(args: readonly string[]): boolean {
  return args.includes("-A") || args.includes("--all-namespaces") || args.includes("--all-namespaces=true");
}

/** `kubectl delete KIND NAME...` or `kubectl delete KIND/NAME...`: kinds and names. */
function deleteTargets(ops: readonly string[]): { kinds: string[]; names: string[] } {
  const kinds: string[] = [];
  const names: string[] = [];
  for (const op of ops) {
    const slash = op.indexOf("/");
    if (slash > 0) {
      kinds.push(op.slice(0, slash).toLowerCase());
      names.push(op.slice(slash + 1));
    } else if (kinds.length === 0) {
      for (const k of op.toLowerCase().split(",")) kinds.push(k);
    } else names.push(op);
  }
  return { kinds, names };
}

function kubectlDelete(inv: Invocation): Hit | undefined {
  const ops = kubectlWords(inv.args);
  if (ops[0] !== "delete") return undefined;
  const { kinds, names } = deleteTargets(ops.slice(1));
  const namespace = optionValue(inv.args, NAMESPACE_OPTION);
  const all = inv.args.includes("--all") || inv.args.includes("--all=true");
  const context = [...names, ...(namespace !== undefined ? [namespace] : [])];
  const ctx = optionValue(inv.args, ["--context"]);
  if (ctx !== undefined) context.push(ctx);
  const agent = [...names, namespace ?? ""].find((n) => SECURITY_AGENTS.has(n.toLowerCase()));
  if (agent !== undefined) {
    return hitOn(inv, "k8s-delete-security-agent", Severity.HIGH, 0.8, `removes the ${agent} security agent`);
  }
  if (all && allNamespaces(inv.args) && !kinds.every((k) => DISPOSABLE_KINDS.has(k))) {
    return hitOn(
      inv,
      "k8s-delete-all-namespaces",
      Severity.HIGH,
      0.9,
      "deletes every resource of a kind in every namespace",
    );
  }
  if (kinds.some((k) => NAMESPACE_KINDS.has(k))) {
    if (names.some((n) => SYSTEM_NAMESPACES.has(n))) {
      return hitOn(inv, "k8s-delete-namespace", Severity.HIGH, 0.9, "deletes a Kubernetes system namespace");
    }
    const tier = all ? Tier.production : targetTier(context);
    return gradedHit(
      inv,
      "k8s-delete-namespace",
      tier,
      Severity.MEDIUM,
      0.8,
      `deletes a ${tierWord(tier)}namespace and everything in it`,
    );
  }
  if (namespace !== undefined && SYSTEM_NAMESPACES.has(namespace) && all) {
    return hitOn(
      inv,
      "k8s-delete-system",
      Severity.HIGH,
      0.8,
      "deletes every resource of a kind in kube-system",
    );
  }
  const tier = targetTier(context);
  if (kinds.some((k) => DATA_KINDS.has(k))) {
    return gradedHit(
      inv,
      "k8s-delete-volumes",
      tier,
      Severity.LOW,
      0.7,
      `deletes ${tierWord(tier)}persistent volumes and their data`,
    );
  }
  if ((all || kinds.includes("all")) && !kinds.every((k) => DISPOSABLE_KINDS.has(k))) {
    return gradedHit(
      inv,
      "k8s-delete-all",
      tier,
      Severity.MEDIUM,
      0.75,
      `deletes every ${tierWord(tier)}resource of a kind${namespace !== undefined ? " in a namespace" : ""}`,
    );
  }
  return undefined;
}

/** Roles that grant everything, cluster-wide or in a namespace. */
const ADMIN_ROLES: ReadonlySet<string> = new Set(["cluster-admin", "admin", "system:masters"]);

function kubectlBinding(inv: Invocation): Hit | undefined {
  const ops = kubectlWords(inv.args);
  if (ops[0] !== "create" || (ops[1] !== "clusterrolebinding" && ops[1] !== "rolebinding")) return undefined;
  const role = optionValue(inv.args, ["--clusterrole", "--role"]);
  const groups = inv.args.filter((a) => a.startsWith("--group")).join(" ");
  if (
    /system:(unauthenticated|anonymous)|system:authenticated/.test(groups) ||
    inv.args.includes("system:anonymous")
  ) {
    return hitOn(inv, "k8s-bind-anonymous", Severity.HIGH, 0.9, "grants a role to every user of the cluster");
  }
  if (role === undefined || !ADMIN_ROLES.has(role)) return undefined;
  return ops[1] === "clusterrolebinding" && role === "cluster-admin"
    ? hitOn(inv, "k8s-cluster-admin", Severity.HIGH, 0.85, "grants cluster-admin over the whole cluster")
    : hitOn(inv, "k8s-admin-binding", Severity.MEDIUM, 0.6, `grants ${role} in a namespace`);
}

/** Hours in a Go duration (`8760h`, `720h30m`, `90d` is not Go but is read as days). */
function durationHours(text: string): number {
  let hours = 0;
  for (const m of text.matchAll(/([0-9]{1,9})([dhms])/g)) {
    const n = Number(m[1]);
    hours += m[2] === "d" ? n * 24 : m[2] === "h" ? n : m[2] === "m" ? n / 60 : n / 3600;
  }
  return hours;
}

function kubectlToken(inv: Invocation): Hit | undefined {
  const ops = kubectlWords(inv.args);
  if (ops[0] !== "create" || ops[1] !== "token") return undefined;
  const duration = optionValue(inv.args, ["--duration"]);
  return duration !== undefined && durationHours(duration) > 24 * 7
    ? hitOn(inv, "k8s-long-token", Severity.MEDIUM, 0.7, "mints a service account token valid for months")
    : undefined;
}

/** Pod-spec settings that hand a pod its node. */
const HOST_ESCAPES: readonly [RegExp, string][] = [
  [/"privileged"\s{0,4}:\s{0,4}true/, "privileged"],
  [/"hostPID"\s{0,4}:\s{0,4}true/, "hostPID"],
  [/"hostNetwork"\s{0,4}:\s{0,4}true/, "hostNetwork"],
  [/"hostIPC"\s{0,4}:\s{0,4}true/, "hostIPC"],
  [/"hostPath"\s{0,4}:\s{0,4}\{\s{0,4}"path"\s{0,4}:\s{0,4}"\/"/, "hostPath /"],
  [/nsenter/, "nsenter"],
];

function kubectlHostEscape(inv: Invocation): Hit | undefined {
  const ops = kubectlWords(inv.args);
  if (ops[0] !== "run" && ops[0] !== "debug") return undefined;
  const overrides = optionValue(inv.args, ["--overrides"]);
  if (overrides === undefined) return undefined;
  const found = HOST_ESCAPES.filter(([re]) => re.test(overrides)).map(([, what]) => what);
  if (found.length === 0) return undefined;
  return hitOn(
    inv,
    "k8s-host-escape",
    found.length >= 2 ? Severity.HIGH : Severity.MEDIUM,
    found.length >= 2 ? 0.85 : 0.6,
    `starts a pod with ${found.join(", ")}: a way onto the node`,
  );
}

export const kubernetesPatterns: readonly RegExp[] = HOST_ESCAPES.map(([re]) => re);

function helmUninstall(inv: Invocation): Hit | undefined {
  const ops = kubectlWords(inv.args);
  if (ops[0] !== "uninstall" && ops[0] !== "delete" && ops[0] !== "del" && ops[0] !== "un") return undefined;
  const releases = ops.slice(1);
  const namespace = optionValue(inv.args, NAMESPACE_OPTION);
  const agent = [...releases, namespace ?? ""].find((n) => SECURITY_AGENTS.has(n.toLowerCase()));
  if (agent !== undefined) {
    return hitOn(
      inv,
      "helm-uninstall-security-agent",
      Severity.HIGH,
      0.8,
      `removes the ${agent} security agent`,
    );
  }
  const context = namespace !== undefined ? [...releases, namespace] : releases;
  const ctx = optionValue(inv.args, ["--kube-context"]);
  if (ctx !== undefined) context.push(ctx);
  const tier = targetTier(context);
  return gradedHit(inv, "helm-uninstall", tier, undefined, 0.7, `uninstalls a ${tierWord(tier)}release`);
}

/**
 * One check per verdict, each run only on the programs it names: the dispatch conformance test
 * runs every check on every command, so a check tests its own program.
 */
function on(programs: readonly string[], judge: (inv: Invocation) => Hit | undefined) {
  return {
    programs: [...programs],
    check(inv: Invocation, hits: Hit[]) {
      if (programs.includes(inv.name)) pushHit(hits, judge(inv));
    },
  };
}

export const kubernetes = ruleModule({
  name: "kubernetes",
  commands: [
    on(KUBECTL, kubectlDelete),
    on(KUBECTL, kubectlBinding),
    on(KUBECTL, kubectlToken),
    on(KUBECTL, kubectlHostEscape),
    on(["helm"], helmUninstall),
  ],
});
