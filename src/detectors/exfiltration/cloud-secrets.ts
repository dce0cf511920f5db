import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { isSensitiveFile } from "../commands/paths.js";
import { ruleModule } from "../commands/rules/dispatch.js";
import {
  commandWords,
  type Hit,
  hitOn,
  NETWORK_SENDERS,
  operands,
  optionValue,
  pushHit,
  RAW_SOCKET_CLIENTS,
  redirectWrites,
} from "../commands/rules/types.js";
import type { Analysis, Invocation, PipelineView } from "../commands/shell/analyze.js";
import { uploadedFiles } from "./transfers.js";

/**
 * Secrets that never touch a file before they leave: what a cloud CLI, Vault, Terraform or a
 * cloud's instance metadata service prints (an access token, a secret's value, a raw
 * kubeconfig, the state with its secrets), or a database dump, piped into a network client or
 * spliced into what one sends; and a secret file uploaded to a storage bucket, a channel that
 * needs no host of the attacker's on the command line.
 *
 * Printing a secret is routine (`aws ecr get-login-password | docker login --password-stdin`,
 * `gcloud secrets versions access latest --secret=x > .env.dev`, a bearer token in a header to
 * the cloud's own API); what is matched is its printed value becoming a request body, a
 * socket's input or part of a URL. A sender to the team's own host is still matched, as
 * `cat .env | curl -d @- ...` is: the text cannot tell whose host it is.
 */

/** What a printer writes out, and how bad sending it is. */
interface Printed {
  readonly what: string;
  /** A dump of data rather than a credential: into a shell session on another host it may be a migration. */
  readonly dump?: boolean;
}

function optionSet(names: string): ReadonlySet<string> {
  return new Set(names.split(" "));
}

/**
 * Options of each CLI read here whose value is the next word, global ones first (`aws --profile
 * prod secretsmanager ...`, `kubectl --context prod config view`) and then those of the storage
 * commands (`aws s3 cp F s3://b/ --acl private`): their values are neither command words nor
 * files. Per program, since one letter means different things (`-n` is kubectl's namespace but
 * rclone's dry run). The commands detector's cloud and kubectl rules keep lists of their own.
 */
const VALUE_OPTIONS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [
    "aws",
    optionSet(
      "--profile --region --output --endpoint-url --query --color --ca-bundle --cli-read-timeout --cli-connect-timeout --cli-binary-format --acl --exclude --include --storage-class --sse --sse-kms-key-id --content-type --cache-control --content-encoding --expected-size",
    ),
  ],
  [
    "gcloud",
    optionSet(
      "--project --account --configuration --format --verbosity --impersonate-service-account --billing-project --flags-file --zone --region --secret --cache-control --content-type",
    ),
  ],
  ["gsutil", optionSet("-h -o -i -u")],
  ["az", optionSet("--subscription --output -o --query --resource-group -g")],
  [
    "kubectl",
    optionSet("-n --namespace --context --kubeconfig --cluster --user -s --server --token --as --as-group"),
  ],
  ["s3cmd", optionSet("-c --config --acl-grant --mime-type --exclude --include --storage-class")],
  ["rclone", optionSet("--config --transfers --checkers --include --exclude --filter --bwlimit --log-file")],
]);

const NO_OPTIONS: ReadonlySet<string> = new Set();

/** A CLI's command words and operands, its options and their values skipped (`aws --profile p s3 cp a b` is `s3 cp a b`). */
function cliWords(inv: Invocation, limit?: number): string[] {
  return commandWords(inv.args, VALUE_OPTIONS.get(inv.name) ?? NO_OPTIONS, { limit });
}

/** `verb noun ...` of a CLI, lowered: `aws secretsmanager get-secret-value` is `secretsmanager get-secret-value`. */
function subcommand(inv: Invocation, length: number): string {
  return cliWords(inv, length).join(" ").toLowerCase();
}

const AWS_PRINTS: ReadonlyMap<string, string> = new Map([
  ["secretsmanager get-secret-value", "a Secrets Manager secret"],
  ["secretsmanager batch-get-secret-value", "Secrets Manager secrets"],
  ["iam create-access-key", "a new IAM access key"],
  ["sts get-session-token", "temporary AWS credentials"],
  ["sts assume-role", "temporary AWS credentials"],
  ["sts get-federation-token", "temporary AWS credentials"],
  ["configure export-credentials", "the AWS credentials"],
  ["ecr get-login-password", "a registry password"],
  ["rds generate-db-auth-token", "a database auth token"],
]);

const GCLOUD_PRINTS: ReadonlyMap<string, string> = new Map([
  ["auth print-access-token", "a Google Cloud access token"],
  ["auth print-identity-token", "a Google Cloud identity token"],
  ["auth application-default print-access-token", "a Google Cloud access token"],
  ["secrets versions access", "a Secret Manager secret"],
]);

const AZ_PRINTS: ReadonlyMap<string, string> = new Map([
  ["account get-access-token", "an Azure access token"],
  ["keyvault secret show", "a Key Vault secret"],
  ["storage account keys", "storage account keys"],
  ["ad sp create-for-rbac", "a new service principal's password"],
  ["ad sp credential", "a service principal's password"],
  ["ad app credential", "an application's password"],
]);

/** `aws ssm get-parameter(s)(-by-path) --with-decryption`: SecureString values in the clear. */
function awsPrints(inv: Invocation): string | undefined {
  const two = subcommand(inv, 2);
  if (two.startsWith("ssm get-parameter") && inv.args.includes("--with-decryption"))
    return "decrypted SSM parameters";
  return AWS_PRINTS.get(two);
}

/** Instance metadata endpoints that hand out the machine's cloud credentials. */
const METADATA_CREDENTIALS =
  /^(?:https?:\/\/)?(?:169\.254\.169\.254|\[?fd00:ec2::254\]?|metadata\.google\.internal|metadata)(?::80)?\/(?:latest\/meta-data\/iam\/security-credentials|computeMetadata\/v1\/instance\/service-accounts\/[^/\s]{1,200}\/(?:token|identity)|metadata\/identity\/oauth2\/token)/i;
/** ECS and EKS Pod Identity agents' credential endpoints. */
const CONTAINER_CREDENTIALS = /^(?:https?:\/\/)?169\.254\.170\.(?:2|23)(?:[/$:]|$)/;

/** A URL of a metadata service's credential endpoint. */
export function isMetadataCredentialUrl(word: string): boolean {
  return METADATA_CREDENTIALS.test(word) || CONTAINER_CREDENTIALS.test(word);
}

const HTTP_CLIENTS: ReadonlySet<string> = new Set(["curl", "wget", "http", "https", "xh"]);
const DUMPERS: ReadonlySet<string> = new Set(["pg_dump", "pg_dumpall", "mysqldump", "mariadb-dump"]);

/** What `inv` prints that holds secrets, if anything; see the module comment. */
export function printedSecrets(inv: Invocation): Printed | undefined {
  let what: string | undefined;
  switch (inv.name) {
    case "aws":
      what = awsPrints(inv);
      break;
    case "gcloud":
      what = GCLOUD_PRINTS.get(subcommand(inv, 3)) ?? GCLOUD_PRINTS.get(subcommand(inv, 2));
      break;
    case "az":
      what = AZ_PRINTS.get(subcommand(inv, 3)) ?? AZ_PRINTS.get(subcommand(inv, 2));
      break;
    case "kubectl": {
      const two = subcommand(inv, 2);
      if (two === "config view" && (inv.args.includes("--raw") || inv.args.includes("--flatten")))
        what = "a kubeconfig with its credentials";
      else if (two.startsWith("create token")) what = "a service account token";
      break;
    }
    case "terraform":
    case "tofu":
    case "terragrunt":
      if (subcommand(inv, 2) === "state pull") what = "the Terraform state, with the secrets it holds";
      break;
    case "vault": {
      const two = subcommand(inv, 2);
      if (two.startsWith("kv get") || two.startsWith("read ") || two === "token create")
        what = "a Vault secret";
      break;
    }
    default:
      if (HTTP_CLIENTS.has(inv.name) && inv.args.some(isMetadataCredentialUrl))
        what = "cloud credentials from the instance metadata service";
      else if (DUMPERS.has(inv.name) && !hasOutputFile(inv)) return { what: "a database dump", dump: true };
      else if (inv.name === "mongodump" && inv.args.some((a) => a === "--archive" || a === "--out=-"))
        return { what: "a database dump", dump: true };
  }
  return what === undefined ? undefined : { what };
}

/** `pg_dump -f out.sql`, `mysqldump --result-file=x`: the dump goes to a file, not the output. */
function hasOutputFile(inv: Invocation): boolean {
  return optionValue(inv.args, ["-f", "--file", "-r", "--result-file"]) !== undefined;
}

/** Programs that receive a pipe's data and send it on: raw sockets, a remote shell, and HTTP clients told to read their input. */
const STREAM_SENDERS: ReadonlySet<string> = new Set([...RAW_SOCKET_CLIENTS, "openssl", "ssh"]);

/** Whether `inv` sends what is piped into it: `curl -d @-`, `curl -T -`, `nc host port`, `ssh host 'cat > f'`. */
function sendsInput(inv: Invocation): boolean {
  if (!NETWORK_SENDERS.has(inv.name) || operands(inv.args).length === 0) return false;
  if (STREAM_SENDERS.has(inv.name)) return true;
  if (inv.name === "http" || inv.name === "https" || inv.name === "xh") return true;
  return uploadedFiles(inv).some((f) => f === "-" || f === ".");
}

/** The printer's hit on a span: secrets HIGH, a dump into a shell on another host MEDIUM. */
function printedHit(span: { start: number; end: number }, printed: Printed, sender: string): Hit {
  if (printed.dump && sender === "ssh")
    return hitOn(
      span,
      "pipe-dump-remote",
      Severity.MEDIUM,
      0.6,
      `${printed.what} piped to another host over ssh`,
    );
  return hitOn(
    span,
    printed.dump ? "pipe-dump-network" : "pipe-cloud-secret-network",
    Severity.HIGH,
    printed.dump ? 0.8 : 0.85,
    `${printed.what} piped into ${sender}`,
  );
}

/** Commands looked at before a sender for a loop's or a subshell's output: bounds the work on hostile text with many pipes. */
const MAX_LOOKBACK = 64;

/** The analysis' commands by where they start: a substitution's come after the command holding it. */
function byStart(analysis: Analysis): Invocation[] {
  return [...analysis.invocations].sort((a, b) => a.start - b.start);
}

/** The index of the first of `sorted` (by start) that starts at or after `offset`. */
function firstFrom(sorted: readonly Invocation[], offset: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.start < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The commands whose output can reach a pipeline's `sender`: the members before it, commands
 * inside its span before it (a subshell, `(gcloud auth print-access-token) | nc h 9`), and,
 * when the pipeline starts with a loop or group's closing keyword (`...; done | curl -T - ...`,
 * a member without a program), the commands before that keyword whose output is not
 * redirected: the parser gives the loop's body pipelines of their own. `sorted` is the
 * analysis' commands by where they start.
 */
function writersOf(p: PipelineView, sender: number, sorted: readonly Invocation[]): Invocation[] {
  const members = p.invocations;
  const first = members[0]!;
  const out = members.slice(0, sender).filter((m) => m.name !== "");
  const end = firstFrom(sorted, members[sender]!.start);
  for (let k = end - 1; k >= 0 && k >= end - MAX_LOOKBACK; k--) {
    const m = sorted[k]!;
    if (members.includes(m)) continue;
    const inside = m.start >= p.start;
    const looped = first.name === "" && m.end <= first.start && redirectWrites(m).length === 0;
    if (inside || looped) out.push(m);
    else if (first.name !== "") break;
  }
  return out;
}

/** A printer early in a pipeline and a sender of its input after it. */
function pipedPrints(analysis: Analysis): Hit[] {
  const hits: Hit[] = [];
  let sorted: Invocation[] | undefined;
  for (const p of analysis.pipelines) {
    const sender = p.invocations.findIndex((m, k) => k > 0 && sendsInput(m));
    if (sender === -1) continue;
    sorted ??= byStart(analysis);
    for (const w of writersOf(p, sender, sorted)) {
      const printed = printedSecrets(w);
      if (printed !== undefined) {
        hits.push(printedHit(p, printed, p.invocations[sender]!.name));
        break;
      }
    }
  }
  return hits;
}

/** Options whose value authenticates a request rather than being sent as its data: a bearer token in a header is how cloud APIs are called. */
const CREDENTIAL_OPTIONS: ReadonlySet<string> = new Set([
  "-H",
  "--header",
  "-u",
  "--user",
  "--oauth2-bearer",
  "-b",
  "--cookie",
  "--proxy-user",
  "-U",
  "--auth",
  "-a",
  "--password",
  "--http-password",
]);

/** Whether `k` is a word passed as a credential rather than as data (`-H "Authorization: ..."`, httpie's `Header:value`). */
function authenticates(inv: Invocation, k: number): boolean {
  const arg = inv.args[k]!;
  const prev = inv.args[k - 1];
  if (prev !== undefined && CREDENTIAL_OPTIONS.has(prev)) return true;
  if (/^(?:-H|--header=|--user=|-u|--oauth2-bearer=)/.test(arg)) return true;
  return inv.name !== "curl" && inv.name !== "wget" && /^[A-Za-z0-9-]{1,64}:[^=/]/.test(arg);
}

/** `curl -d "$(gcloud auth print-access-token)" https://...`: a printed secret spliced into a request's data or URL. */
function substitutedPrints(inv: Invocation, sorted: readonly Invocation[]): Hit | undefined {
  // A request to the metadata service itself (`.../security-credentials/$(curl .../security-credentials/)`) sends nothing out.
  if (inv.args.some(isMetadataCredentialUrl)) return undefined;
  for (let k = 0; k < inv.argWords.length; k++) {
    const w = inv.argWords[k]!;
    if (w.substitutions.length === 0 || authenticates(inv, k)) continue;
    // A substitution's commands are analysed as commands of their own, within the word's span.
    for (let j = firstFrom(sorted, w.start); j < sorted.length && sorted[j]!.start < w.end; j++) {
      const m = sorted[j]!;
      const printed = m === inv || m.end > w.end ? undefined : printedSecrets(m);
      if (printed !== undefined)
        return hitOn(
          inv,
          "substitution-cloud-secret",
          Severity.HIGH,
          0.85,
          `${inv.name} sends ${printed.what}`,
        );
    }
  }
  return undefined;
}

/** Whether some argument of `inv` holds a command substitution. */
function hasSubstitution(inv: Invocation): boolean {
  return inv.argWords.some((w) => w.substitutions.length > 0);
}

/** `s3://`, `gs://`, `az://`, `r2://`, `b2://`: a bucket or container (rclone's `name:path` remotes are read by `bucketUploads`). */
function isBucket(word: string): boolean {
  return /^(?:s3|gs|az|r2|b2):\/\//i.test(word);
}

/**
 * The local files a storage CLI uploads: `aws s3 cp|mv|sync SRC s3://...`, `gsutil cp SRC gs://...`,
 * `gcloud storage cp`, `az storage blob upload -f SRC`, `rclone copy SRC remote:`, `s3cmd put`, `azcopy copy`.
 */
export function bucketUploads(inv: Invocation): readonly string[] {
  const ops = cliWords(inv);
  const lower = ops.map((o) => o.toLowerCase());
  const copyTo = (from: number): readonly string[] => {
    const rest = ops.slice(from);
    const dest = rest.at(-1);
    if (rest.length < 2 || dest === undefined) return [];
    const remote =
      isBucket(dest) ||
      /^https:\/\//.test(dest) ||
      (inv.name === "rclone" && /^[A-Za-z0-9_-]{1,64}:/.test(dest));
    return remote ? rest.slice(0, -1).filter((o) => !isBucket(o)) : [];
  };
  switch (inv.name) {
    case "aws":
      if (lower[0] === "s3" && (lower[1] === "cp" || lower[1] === "mv" || lower[1] === "sync"))
        return copyTo(2);
      if (lower[0] === "s3api" && lower[1] === "put-object")
        return fileNamed(optionValue(inv.args, ["--body"]));
      return [];
    case "gsutil":
      return lower[0] === "cp" || lower[0] === "mv" || lower[0] === "rsync" ? copyTo(1) : [];
    case "gcloud":
      return lower[0] === "storage" && (lower[1] === "cp" || lower[1] === "mv" || lower[1] === "rsync")
        ? copyTo(2)
        : [];
    case "az":
      return lower[0] === "storage" && (lower[2] === "upload" || lower[2] === "upload-batch")
        ? fileNamed(optionValue(inv.args, ["-f", "--file", "-s", "--source"]))
        : [];
    case "s3cmd":
      return lower[0] === "put" || lower[0] === "sync" ? copyTo(1) : [];
    case "rclone":
      return ["copy", "copyto", "move", "moveto", "sync"].includes(lower[0] ?? "") ? copyTo(1) : [];
    case "azcopy":
      return lower[0] === "copy" || lower[0] === "cp" || lower[0] === "sync" ? copyTo(1) : [];
    default:
      return [];
  }
}

/** The one file an option names, or none. */
function fileNamed(value: string | undefined): readonly string[] {
  return value === undefined ? [] : [value];
}

const STORAGE_PROGRAMS = ["aws", "gsutil", "gcloud", "az", "s3cmd", "rclone", "azcopy"];

/** A secret file uploaded to a bucket: whoever owns the bucket now holds it. */
function bucketSecret(inv: Invocation): Hit | undefined {
  const secret = bucketUploads(inv).find(isSensitiveFile);
  return secret === undefined
    ? undefined
    : hitOn(
        inv,
        "bucket-upload-secret",
        Severity.HIGH,
        0.85,
        `${inv.name} uploads ${secret} to cloud storage`,
      );
}

interface CloudState {
  /** A command that sends its input was met: `pipedPrints` has nothing to find without one. */
  sender: boolean;
  /** Clients with a command substitution among their arguments, for `substitutedPrints`. */
  readonly substituting: Invocation[];
}

export const cloudSecrets = ruleModule<CloudState>({
  name: "cloud-secrets",
  prepare: () => ({ sender: false, substituting: [] }),
  commands: [
    { programs: STORAGE_PROGRAMS, check: (inv, hits) => pushHit(hits, bucketSecret(inv)) },
    {
      // Every HTTP client and raw socket client is a network sender.
      programs: [...NETWORK_SENDERS],
      check: (inv, _hits, state) => {
        if (inv.position > 0 && sendsInput(inv)) state.sender = true;
        if ((HTTP_CLIENTS.has(inv.name) || RAW_SOCKET_CLIENTS.has(inv.name)) && hasSubstitution(inv))
          state.substituting.push(inv);
      },
    },
  ],
  after: (analysis, hits, state) => {
    if (state.substituting.length > 0) {
      const sorted = byStart(analysis);
      for (const inv of state.substituting) pushHit(hits, substitutedPrints(inv, sorted));
    }
    if (state.sender) hits.push(...pipedPrints(analysis));
  },
});
