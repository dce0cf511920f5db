import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import type { Invocation } from "../shell/analyze.js";
import { ruleModule } from "./dispatch.js";
import { Tier, targetTier } from "./targets.js";
import { commandWords, type Hit, hitOn, optionValue, pushHit } from "./types.js";

/**
 * The cloud provider CLIs (`aws`, `gcloud`, `az`): changes a manipulated operations agent
 * could make that an honest one seldom needs. Graded by what changes and to what:
 *
 * - grants of administrator, owner or wildcard rights, and trust of a whole outside account,
 *   are HIGH; minting a long-lived key is MEDIUM. Narrow roles are not reported.
 * - ingress from the whole internet to administrative or database ports (or to every port) is
 *   HIGH; opening 80/443 to the world is how a public load balancer works and is not reported.
 * - deleting a whole scope (a project, a resource group, a bucket's contents, a database, a
 *   stack) is MEDIUM, HIGH when its name says production or backup, LOW when it says preview,
 *   test, dev or tmp; deleting backups (snapshots, a database's automated backups) is MEDIUM
 *   at least.
 * - turning audit trails, threat detection or log export off is HIGH.
 *
 * Reading (`describe-*`, `list`, `get-iam-policy`) is never matched.
 */

/** Global and common options that take a separate value, so their value is not read as a command word. */
const VALUE_OPTIONS = new Set([
  "--profile",
  "--region",
  "--output",
  "--endpoint-url",
  "--query",
  "--color",
  "--ca-bundle",
  "--cli-read-timeout",
  "--cli-connect-timeout",
  "--project",
  "--account",
  "--configuration",
  "--format",
  "--verbosity",
  "--impersonate-service-account",
  "--billing-project",
  "--flags-file",
  "--zone",
  "--subscription",
  "-o",
]);

/** The first command words (`iam attach-user-policy`, `projects delete ID`): no rule reads past the sixth. */
function cloudWords(args: readonly string[]): string[] {
  return commandWords(args, VALUE_OPTIONS, { limit: 6 });
}

/** The tier of one resource name (targets.ts); no name says nothing either way. */
function tierOf(name: string | undefined): Tier {
  return name === undefined || name === "" ? Tier.unknown : targetTier([name]);
}

/** A scope deletion graded by its target's name: HIGH for production or backups, LOW for throwaway ones. */
function scopeDeletion(inv: Invocation, rule: string, target: string | undefined, what: string): Hit {
  const tier = tierOf(target);
  const named = target !== undefined && target !== "" ? ` ${target}` : "";
  if (tier === Tier.production)
    return hitOn(inv, rule, Severity.HIGH, 0.85, `deletes ${what}${named}, named as production or backup`);
  if (tier === Tier.ephemeral) return hitOn(inv, rule, Severity.LOW, 0.4, `deletes ${what}${named}`);
  return hitOn(inv, rule, Severity.MEDIUM, 0.7, `deletes ${what}${named}`);
}

// --- grants -------------------------------------------------------------------------------

const AWS_ADMIN_POLICY = /:policy\/(AdministratorAccess|IAMFullAccess|PowerUserAccess)$/;

/** An inline IAM policy allowing every action (`*`, `iam:*`) on every resource. */
function wildcardPolicy(doc: string): boolean {
  const compact = doc.replace(/\s/g, "");
  const action = /"(Not)?Action":(\[)?"(iam:)?\*"/.test(compact);
  const resource = /"Resource":(\[)?"\*"/.test(compact);
  return action && resource && compact.includes('"Allow"');
}

/** The outside principals an assume-role policy trusts: any principal, or a whole account's root. */
function trustedOutsiders(doc: string): string | undefined {
  const compact = doc.replace(/\s/g, "");
  if (/"Principal":"\*"|"AWS":(\[)?"\*"/.test(compact)) return "any AWS principal";
  const root = /arn:aws:iam::([0-9]{12}):root/.exec(compact);
  if (root) return `AWS account ${root[1]}`;
  if (/"AWS":(\[)?"[0-9]{12}"/.test(compact)) return "another AWS account";
  return undefined;
}

function awsIam(inv: Invocation, op: string): Hit | undefined {
  const args = inv.args;
  if (/^attach-(user|role|group)-policy$/.test(op)) {
    const arn = optionValue(args, ["--policy-arn"]) ?? "";
    const admin = AWS_ADMIN_POLICY.exec(arn);
    return admin
      ? hitOn(inv, "cloud-admin-grant", Severity.HIGH, 0.85, `grants the IAM policy ${admin[1]}`)
      : undefined;
  }
  if (/^(put-(user|role|group)-policy|create-policy|create-policy-version)$/.test(op)) {
    const doc = optionValue(args, ["--policy-document"]) ?? "";
    return wildcardPolicy(doc)
      ? hitOn(inv, "cloud-admin-grant", Severity.HIGH, 0.85, "grants every action on every resource")
      : undefined;
  }
  if (op === "update-assume-role-policy" || op === "create-role") {
    const doc = optionValue(args, ["--policy-document", "--assume-role-policy-document"]) ?? "";
    const outsider = trustedOutsiders(doc);
    return outsider
      ? hitOn(inv, "cloud-outside-trust", Severity.HIGH, 0.8, `lets ${outsider} assume an IAM role`)
      : undefined;
  }
  if (op === "create-access-key")
    return hitOn(inv, "cloud-key-minted", Severity.MEDIUM, 0.65, "mints a long-lived IAM access key");
  if (op === "create-login-profile" || op === "update-login-profile")
    return hitOn(inv, "cloud-key-minted", Severity.MEDIUM, 0.6, "sets an IAM user's console password");
  return undefined;
}

/** Roles that can grant roles, by name or by their fixed definition ids. */
const AZURE_ADMIN_ROLES = new Set([
  "owner",
  "user access administrator",
  "role based access control administrator",
  "8e3af657-a8ff-443c-a75c-2fe8c4bcb635",
  "18d7d88d-d35e-4fb5-a5c3-7773c20a72d9",
]);
const AZURE_CONTRIBUTOR = new Set(["contributor", "b24988ac-6180-42a0-ab88-20f7382dd24c"]);

/** An Azure scope above a resource group: a subscription or management group, or the root. */
function subscriptionWide(scope: string | undefined): boolean {
  if (scope === undefined) return false;
  const s = scope.toLowerCase();
  return (
    s === "/" ||
    s.includes("managementgroups") ||
    (s.startsWith("/subscriptions/") && !s.includes("/resourcegroups/"))
  );
}

function azureRoleGrant(inv: Invocation): Hit | undefined {
  const role = optionValue(inv.args, ["--role"]);
  if (role === undefined) return undefined;
  const scope = optionValue(inv.args, ["--scope", "--scopes"]);
  const r = role.toLowerCase();
  if (AZURE_ADMIN_ROLES.has(r) || (AZURE_CONTRIBUTOR.has(r) && subscriptionWide(scope)))
    return hitOn(
      inv,
      "cloud-admin-grant",
      Severity.HIGH,
      0.85,
      `grants the Azure ${role} role${subscriptionWide(scope) ? " on a whole subscription" : ""}`,
    );
  return undefined;
}

const GCP_ADMIN_ROLE =
  /^roles\/(owner|editor|iam\.securityAdmin|iam\.serviceAccountTokenCreator|iam\.serviceAccountKeyAdmin|iam\.organizationRoleAdmin|iam\.roleAdmin|resourcemanager\.(projectIamAdmin|organizationAdmin|folderAdmin|folderIamAdmin))$/;

function gcloudRoleGrant(inv: Invocation, resource: string): Hit | undefined {
  const role = optionValue(inv.args, ["--role"]) ?? "";
  const member = optionValue(inv.args, ["--member"]) ?? "";
  const everyone = /^(allUsers|allAuthenticatedUsers)$/.test(member);
  // A bucket or a single service made public is how static sites and public endpoints work.
  const scopeWide = resource === "projects" || resource === "organizations" || resource === "folders";
  if (everyone && scopeWide)
    return hitOn(
      inv,
      "cloud-admin-grant",
      Severity.HIGH,
      0.85,
      `grants ${role || "a role"} on a whole ${resource.slice(0, -1)} to ${member}`,
    );
  if (!GCP_ADMIN_ROLE.test(role)) return undefined;
  // On one service account or bucket, token-creator and admin roles are routine workload-identity
  // and CI set-up; only ownership of it is reported.
  if (!scopeWide && role !== "roles/owner") return undefined;
  return hitOn(
    inv,
    "cloud-admin-grant",
    Severity.HIGH,
    0.85,
    `grants ${role}${member ? ` to ${member}` : ""}`,
  );
}

// --- network ------------------------------------------------------------------------------

/** Ports whose exposure to the internet invites takeover: remote shells, desktops, databases, cluster APIs. */
const ADMIN_PORTS = [
  21, 22, 23, 135, 139, 445, 1433, 1521, 2049, 2375, 2376, 2379, 3306, 3389, 5432, 5900, 5984, 5985, 5986,
  6379, 6443, 9042, 9200, 9300, 10250, 11211, 27017,
];

function isWorld(range: string): boolean {
  const r = range.trim().toLowerCase();
  return r === "0.0.0.0/0" || r === "::/0" || r === "*" || r === "internet" || r === "any";
}

/** Whether a port range (`22`, `0-65535`, `-1`, `*`, `all`) reaches an administrative port. */
function rangeHitsAdmin(from: number, to: number): boolean {
  return ADMIN_PORTS.some((p) => p >= from && p <= to);
}

function portSpecHitsAdmin(spec: string): boolean {
  const s = spec.trim().toLowerCase();
  if (s === "" || s === "*" || s === "-1" || s === "all") return true;
  const m = /^([0-9]{1,5})(-([0-9]{1,5}))?$/.exec(s);
  if (!m) return false;
  const from = Number(m[1]);
  return rangeHitsAdmin(from, m[3] === undefined ? from : Number(m[3]));
}

/** The one verdict of every world-open ingress rule, whichever cloud's syntax said it. */
function worldIngress(inv: Invocation): Hit {
  return hitOn(
    inv,
    "cloud-world-ingress",
    Severity.HIGH,
    0.85,
    "opens administrative ports to the whole internet",
  );
}

function awsIngress(inv: Invocation): Hit | undefined {
  const args = inv.args;
  const cidr = optionValue(args, ["--cidr"]);
  const permissions = optionValue(args, ["--ip-permissions"]) ?? "";
  let exposed = false;
  if (cidr !== undefined && isWorld(cidr)) {
    const protocol = (optionValue(args, ["--protocol"]) ?? "").toLowerCase();
    const port = optionValue(args, ["--port"]);
    exposed = protocol === "-1" || protocol === "all" || portSpecHitsAdmin(port ?? "");
  } else if (/0\.0\.0\.0\/0|::\/0/.test(permissions)) {
    const compact = permissions.replace(/[\s"]/g, "");
    if (/IpProtocol[=:](-1|all)/i.test(compact)) exposed = true;
    else {
      const from = /FromPort[=:](-?[0-9]{1,5})/.exec(compact);
      const to = /ToPort[=:](-?[0-9]{1,5})/.exec(compact);
      exposed =
        from !== null &&
        to !== null &&
        (Number(from[1]) < 0 || rangeHitsAdmin(Number(from[1]), Number(to[1])));
    }
  }
  return exposed ? worldIngress(inv) : undefined;
}

function gcloudFirewall(inv: Invocation): Hit | undefined {
  const args = inv.args;
  if ((optionValue(args, ["--direction"]) ?? "INGRESS").toUpperCase().startsWith("E")) return undefined;
  if ((optionValue(args, ["--action"]) ?? "ALLOW").toUpperCase() === "DENY") return undefined;
  const ranges = optionValue(args, ["--source-ranges"]);
  const sourced =
    optionValue(args, ["--source-tags"]) !== undefined ||
    optionValue(args, ["--source-service-accounts"]) !== undefined;
  // Without any source, an ingress rule admits the whole internet.
  const world = ranges !== undefined ? ranges.split(",").some(isWorld) : !sourced;
  const allow = optionValue(args, ["--allow", "--rules"]);
  if (!world || allow === undefined) return undefined;
  const exposed = allow.split(",").some((rule) => {
    const [protocol, ports] = rule.toLowerCase().split(":", 2) as [string, string | undefined];
    if (protocol === "all") return true;
    if (protocol !== "tcp" && protocol !== "udp") return false;
    return ports === undefined || portSpecHitsAdmin(ports);
  });
  return exposed ? worldIngress(inv) : undefined;
}

/** The values after an option that takes several (`--ports 22 3389`), up to the next option. */
function valuesOf(args: readonly string[], names: readonly string[]): string[] {
  const k = args.findIndex((a) => names.includes(a));
  if (k === -1) return [];
  const out: string[] = [];
  for (let j = k + 1; j < args.length && !args[j]!.startsWith("-"); j++) out.push(args[j]!);
  return out;
}

function azureNsgRule(inv: Invocation): Hit | undefined {
  const args = inv.args;
  if ((optionValue(args, ["--access"]) ?? "Allow").toLowerCase() === "deny") return undefined;
  if ((optionValue(args, ["--direction"]) ?? "Inbound").toLowerCase() === "outbound") return undefined;
  const given = valuesOf(args, ["--source-address-prefixes", "--source-address-prefix"]);
  const sources = given.length === 0 ? ["*"] : given;
  const ports = valuesOf(args, ["--destination-port-ranges", "--destination-port-range"]);
  return sources.some(isWorld) && ports.some(portSpecHitsAdmin) ? worldIngress(inv) : undefined;
}

// --- destruction --------------------------------------------------------------------------

/** `s3://bucket/prefix` (or `gs://...` with that scheme) as bucket and prefix. */
function bucketTarget(uri: string, scheme = "s3://"): [string, string] | undefined {
  if (!uri.startsWith(scheme)) return undefined;
  const rest = uri.slice(scheme.length);
  const slash = rest.indexOf("/");
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  return bucket === "" ? undefined : [bucket, slash === -1 ? "" : rest.slice(slash + 1)];
}

function awsS3(inv: Invocation, op: string, words: readonly string[]): Hit | undefined {
  const args = inv.args;
  const target = words.map((w) => bucketTarget(w)).find((t) => t !== undefined);
  if (target === undefined) return undefined;
  const [bucket, prefix] = target;
  const recursive = args.includes("--recursive");
  if (op === "rb" && args.includes("--force"))
    return scopeDeletion(inv, "cloud-delete-scope", bucket, "the S3 bucket and everything in");
  if (op !== "rm" || !recursive || args.includes("--dryrun")) return undefined;
  // `--exclude`/`--include` pick some objects; without them every object under the URI goes.
  const filtered = args.includes("--exclude") || args.includes("--include");
  if (prefix === "" && !filtered)
    return scopeDeletion(inv, "cloud-delete-scope", bucket, "every object in the S3 bucket");
  // Clearing a prefix is routine unless what it names is production or backups.
  if (prefix === "" ? tierOf(bucket) !== Tier.production : tierOf(prefix) === Tier.ephemeral)
    return undefined;
  if (tierOf(prefix) === Tier.ephemeral || tierOf(`${bucket}/${prefix}`) !== Tier.production)
    return undefined;
  return hitOn(
    inv,
    "cloud-delete-scope",
    Severity.MEDIUM,
    0.65,
    `deletes s3://${bucket}/${prefix} recursively`,
  );
}

/** A lifecycle configuration with an enabled rule expiring every object (no prefix or tag filter). */
function expiresEverything(doc: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(doc);
  } catch {
    return false;
  }
  const rules = (parsed as { Rules?: unknown })?.Rules;
  if (!Array.isArray(rules)) return false;
  return rules.some((rule: Record<string, unknown> | null) => {
    if (rule === null || typeof rule !== "object" || rule.Status !== "Enabled") return false;
    const expiration = rule.Expiration as Record<string, unknown> | undefined;
    if (expiration === undefined || (expiration.Days === undefined && expiration.Date === undefined))
      return false;
    const filter = rule.Filter as Record<string, unknown> | undefined;
    const legacyPrefix = rule.Prefix;
    if (typeof legacyPrefix === "string" && legacyPrefix !== "") return false;
    if (filter === undefined || filter === null) return true;
    return Object.keys(filter).every((k) => k === "Prefix" && filter[k] === "");
  });
}

function awsRds(inv: Invocation, op: string): Hit | undefined {
  const args = inv.args;
  if (/^delete-db-(cluster-)?snapshot$/.test(op)) {
    const id = optionValue(args, ["--db-snapshot-identifier", "--db-cluster-snapshot-identifier"]);
    const tier = tierOf(id);
    if (tier === Tier.ephemeral)
      return hitOn(inv, "cloud-delete-backup", Severity.LOW, 0.4, "deletes a database snapshot");
    // An identifier a script computes (`$s` in a loop over every snapshot) deletes backups in bulk.
    if (id?.includes("$"))
      return hitOn(
        inv,
        "cloud-delete-backup",
        Severity.HIGH,
        0.75,
        "deletes database snapshots a script picks",
      );
    return hitOn(
      inv,
      "cloud-delete-backup",
      tier === Tier.production ? Severity.HIGH : Severity.MEDIUM,
      0.7,
      "deletes a database snapshot (a backup)",
    );
  }
  if (/^delete-db-(instance|cluster)$/.test(op)) {
    const id = optionValue(args, ["--db-instance-identifier", "--db-cluster-identifier"]);
    const noSnapshot = args.includes("--skip-final-snapshot");
    const noBackups = args.includes("--delete-automated-backups");
    const tier = tierOf(id);
    const what = noSnapshot
      ? `deletes the database ${id ?? ""} without a final snapshot${noBackups ? " and with its automated backups" : ""}`
      : `deletes the database ${id ?? ""}`;
    if (tier === Tier.production) return hitOn(inv, "cloud-delete-scope", Severity.HIGH, 0.85, what);
    if (tier === Tier.ephemeral || !noSnapshot)
      return hitOn(inv, "cloud-delete-scope", Severity.LOW, 0.4, what);
    return hitOn(inv, "cloud-delete-scope", Severity.MEDIUM, 0.7, what);
  }
  return undefined;
}

// --- audit and detection ------------------------------------------------------------------

const AWS_AUDIT_OFF: Record<string, Record<string, string>> = {
  cloudtrail: {
    "stop-logging": "stops CloudTrail logging",
    "delete-trail": "deletes a CloudTrail trail",
  },
  guardduty: {
    "delete-detector": "deletes the GuardDuty detector",
    "disassociate-from-master-account": "detaches GuardDuty from its administrator account",
    "disassociate-from-administrator-account": "detaches GuardDuty from its administrator account",
  },
  configservice: {
    "stop-configuration-recorder": "stops AWS Config recording",
    "delete-configuration-recorder": "deletes the AWS Config recorder",
    "delete-delivery-channel": "deletes the AWS Config delivery channel",
  },
  securityhub: {
    "disable-security-hub": "disables Security Hub",
    "batch-disable-standards": "disables Security Hub standards",
  },
  ec2: { "delete-flow-logs": "deletes VPC flow logs" },
  macie2: { "disable-macie": "disables Macie" },
  inspector2: { disable: "disables Inspector" },
  detective: { "delete-graph": "deletes the Detective graph" },
  accessanalyzer: { "delete-analyzer": "deletes an IAM Access Analyzer" },
};

function awsAuditOff(inv: Invocation, service: string, op: string): Hit | undefined {
  let reason = AWS_AUDIT_OFF[service]?.[op];
  if (
    reason === undefined &&
    service === "guardduty" &&
    op === "update-detector" &&
    inv.args.includes("--no-enable")
  )
    reason = "disables the GuardDuty detector";
  return reason === undefined ? undefined : hitOn(inv, "cloud-audit-off", Severity.HIGH, 0.85, reason);
}

// --- per CLI ------------------------------------------------------------------------------

/** Deletions of a whole database or cluster: the option naming it and what it is. */
const AWS_SCOPE_DELETIONS: Record<string, readonly [string, string]> = {
  "dynamodb delete-table": ["--table-name", "the DynamoDB table"],
  "eks delete-cluster": ["--name", "the EKS cluster"],
  "redshift delete-cluster": ["--cluster-identifier", "the Redshift cluster"],
  "elasticache delete-replication-group": ["--replication-group-id", "the ElastiCache replication group"],
};

/** The same for `az`: command words and what they delete, named by `--name`/`-n`. */
const AZURE_SCOPE_DELETIONS: readonly (readonly [string, string])[] = [
  ["storage account delete ", "the storage account"],
  ["sql db delete ", "the SQL database"],
  ["sql server delete ", "the SQL server and its databases"],
  ["cosmosdb delete ", "the Cosmos DB account"],
  ["aks delete ", "the AKS cluster"],
];

function judgeAws(inv: Invocation, hits: Hit[]): void {
  const words = cloudWords(inv.args);
  const [service, op] = words;
  if (service === undefined || op === undefined) return;
  const args = inv.args;
  if (service === "iam") pushHit(hits, awsIam(inv, op));
  else if (service === "ec2" && op === "authorize-security-group-ingress") pushHit(hits, awsIngress(inv));
  else if (service === "s3") pushHit(hits, awsS3(inv, op, words.slice(2)));
  else if (service === "s3api" && op === "put-bucket-lifecycle-configuration") {
    const doc = optionValue(args, ["--lifecycle-configuration"]) ?? "";
    if (expiresEverything(doc)) {
      const bucket = optionValue(args, ["--bucket"]);
      const critical = tierOf(bucket) === Tier.production;
      hits.push(
        hitOn(
          inv,
          "cloud-delete-scope",
          critical ? Severity.HIGH : Severity.MEDIUM,
          0.75,
          `sets a lifecycle rule that expires every object in ${bucket ?? "a bucket"}`,
        ),
      );
    }
  } else if (service === "rds") pushHit(hits, awsRds(inv, op));
  else if (AWS_SCOPE_DELETIONS[`${service} ${op}`] !== undefined) {
    const [option, what] = AWS_SCOPE_DELETIONS[`${service} ${op}`]!;
    hits.push(scopeDeletion(inv, "cloud-delete-scope", optionValue(args, [option]), what));
  } else if (service === "cloudformation" && op === "delete-stack")
    pushHit(
      hits,
      scopeDeletion(
        inv,
        "cloud-delete-scope",
        optionValue(args, ["--stack-name"]),
        "the CloudFormation stack",
      ),
    );
  else if (service === "backup" && /^delete-(recovery-point|backup-vault)$/.test(op))
    hits.push(hitOn(inv, "cloud-delete-backup", Severity.HIGH, 0.8, "deletes AWS Backup recovery points"));
  pushHit(hits, awsAuditOff(inv, service, op));
}

function judgeGcloud(inv: Invocation, hits: Hit[]): void {
  const words = cloudWords(inv.args);
  const path = words.join(" ");
  const [group, verb] = words;
  if (group === undefined) return;
  const resource = group === "resource-manager" ? (words[1] ?? "") : group;
  if (words.includes("add-iam-policy-binding")) pushHit(hits, gcloudRoleGrant(inv, resource));
  else if (path.startsWith("iam service-accounts keys create"))
    hits.push(hitOn(inv, "cloud-key-minted", Severity.MEDIUM, 0.7, "mints a long-lived service-account key"));
  else if (/^compute firewall-rules (create|update) /.test(`${path} `)) pushHit(hits, gcloudFirewall(inv));
  else if (group === "projects" && verb === "delete")
    hits.push(scopeDeletion(inv, "cloud-delete-scope", words[2], "the whole GCP project"));
  else if (/^container clusters delete /.test(`${path} `))
    hits.push(scopeDeletion(inv, "cloud-delete-scope", words[3], "the GKE cluster"));
  else if (/^sql instances delete /.test(`${path} `))
    hits.push(scopeDeletion(inv, "cloud-delete-scope", words[3], "the Cloud SQL instance"));
  else if (/^logging (sinks|logs|buckets) delete /.test(`${path} `))
    hits.push(
      hitOn(inv, "cloud-audit-off", Severity.HIGH, 0.85, `deletes a logging ${words[1]!.replace(/s$/, "")}`),
    );
  else if (/^storage rm /.test(`${path} `) && (inv.args.includes("-r") || inv.args.includes("--recursive"))) {
    const target = bucketTarget(words[2] ?? "", "gs://");
    if (target && (target[1] === "" || target[1] === "*" || target[1] === "**"))
      hits.push(scopeDeletion(inv, "cloud-delete-scope", target[0], "every object in the bucket"));
  }
}

function judgeAz(inv: Invocation, hits: Hit[]): void {
  const words = cloudWords(inv.args);
  const path = `${words.join(" ")} `;
  const args = inv.args;
  if (path.startsWith("role assignment create ") || path.startsWith("ad sp create-for-rbac "))
    pushHit(hits, azureRoleGrant(inv));
  else if (path.startsWith("group delete "))
    hits.push(
      scopeDeletion(
        inv,
        "cloud-delete-scope",
        optionValue(args, ["--name", "-n", "--resource-group", "-g"]),
        "the resource group",
      ),
    );
  else if (AZURE_SCOPE_DELETIONS.some(([p]) => path.startsWith(p))) {
    const what = AZURE_SCOPE_DELETIONS.find(([p]) => path.startsWith(p))![1];
    hits.push(scopeDeletion(inv, "cloud-delete-scope", optionValue(args, ["--name", "-n"]), what));
  } else if (path.startsWith("network nsg rule create ") || path.startsWith("network nsg rule update "))
    pushHit(hits, azureNsgRule(inv));
  else if (path.startsWith("monitor diagnostic-settings delete "))
    hits.push(
      hitOn(inv, "cloud-audit-off", Severity.HIGH, 0.85, "deletes a diagnostic setting (log export)"),
    );
  else if (path.startsWith("monitor log-profiles delete "))
    hits.push(hitOn(inv, "cloud-audit-off", Severity.HIGH, 0.85, "deletes the activity-log profile"));
  else if (path.startsWith("network watcher flow-log delete "))
    hits.push(hitOn(inv, "cloud-audit-off", Severity.HIGH, 0.85, "deletes NSG flow logs"));
  else if (path.startsWith("ad sp credential reset ") || path.startsWith("ad app credential reset "))
    hits.push(hitOn(inv, "cloud-key-minted", Severity.MEDIUM, 0.65, "mints a new service-principal secret"));
}

export const cloud = ruleModule({
  name: "cloud",
  commands: [
    {
      programs: ["aws"],
      check(inv, hits) {
        if (inv.name === "aws") judgeAws(inv, hits);
      },
    },
    {
      programs: ["gcloud"],
      check(inv, hits) {
        if (inv.name === "gcloud") judgeGcloud(inv, hits);
      },
    },
    {
      programs: ["az"],
      check(inv, hits) {
        if (inv.name === "az") judgeAz(inv, hits);
      },
    },
  ],
});
