import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { findSecrets, secretRules } from "../../../src/detectors/secrets/index.js";
import { buildPrefilter } from "../../../src/detectors/secrets/prefilter.js";
import { runRule, type SecretRule } from "../../../src/detectors/secrets/rule.js";

/** Assembles test tokens from parts so that the source file itself holds no scannable secret. */
const j = (...parts: string[]) => parts.join("");

const GHP = j("ghp_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx");
const AKIA = j("AKIA", "Z7Q3LMNB2KD5XWTR");
const OPENAI = j("sk-", "HxsVRClzUoqDGsfVeTJ", "T3BlbkFJ", "jgTxONt21NKqFtj6FLfH");
const ANTHROPIC = j(
  "sk-ant-api03-",
  "z0zjHHXo5uibD2havvfqiZYJe9ENlwI1trcQC4pyRC2N2w6nbpUitUU_iR4kkSszVyUpINaxvCtun3_Mub0O3w-48GXRg",
  "AA",
);
const JWT = j(
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
  ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ",
  ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
);
const PEM = j(
  "-----BEGIN RSA PRIVATE KEY-----\n",
  "MIICWwIBAAKBgQCYdGaf5uYMsilGHfnx/zxXtihdGFr3hCWwebHGhgEAVn0xlsTd\n",
  "1QwoKi+rpI1O6hzyVOuoQtboODsONGRlHbNl6yJ936Yhmr8PiNwpA5qIxZAdmFv2\n",
  "-----END RSA PRIVATE KEY-----",
);

interface Case {
  readonly name: string;
  readonly text: string;
  readonly category: string;
  /** The exact text the finding's span must cover. */
  readonly span: string;
  readonly kind: string;
}

const positives: readonly Case[] = [
  {
    name: "GitHub classic token",
    text: `token ${GHP} here`,
    category: "github_token",
    span: GHP,
    kind: "GITHUB_TOKEN",
  },
  { name: "AWS access key id", text: `id=${AKIA};`, category: "aws_access_key", span: AKIA, kind: "AWS_KEY" },
  {
    name: "OpenAI key",
    text: `OPENAI_API_KEY="${OPENAI}"`,
    category: "openai_api_key",
    span: OPENAI,
    kind: "OPENAI_KEY",
  },
  {
    name: "Anthropic key",
    text: `use ${ANTHROPIC}.`,
    category: "anthropic_api_key",
    span: ANTHROPIC,
    kind: "ANTHROPIC_KEY",
  },
  { name: "JWT", text: `Cookie: session=${JWT}`, category: "jwt", span: JWT, kind: "JWT" },
  {
    name: "PEM private key",
    text: `key:\n${PEM}\nend`,
    category: "private_key",
    span: PEM,
    kind: "PRIVATE_KEY",
  },
  {
    name: "postgres URL covers the password only",
    text: "DATABASE_URL=postgres://app:s3cr3tP4ss@db.internal:5432/prod",
    category: "database_url",
    span: "s3cr3tP4ss",
    kind: "DB_URL",
  },
  {
    name: "mongodb+srv password containing @",
    text: "mongodb+srv://appuser:myR3alP@ssw0rd@cluster0.mongodb.net/db",
    category: "database_url",
    span: "myR3alP@ssw0rd",
    kind: "DB_URL",
  },
  {
    name: "basic-auth https URL",
    text: "https://deploy:r3alP4ssw0rd@api.production.com/v2",
    category: "basic_auth_url",
    span: "r3alP4ssw0rd",
    kind: "BASIC_AUTH",
  },
  {
    name: "Slack bot token",
    text: j("bot-token=xoxb-", "23984754863-2348975623000-", "AAAAANzjawSSE9krECohd"),
    category: "slack_token",
    span: j("xoxb-", "23984754863-2348975623000-", "AAAAANzjawSSE9krECohd"),
    kind: "SLACK_TOKEN",
  },
  {
    name: "Stripe live key",
    text: j("STRIPE=", "sk_live_", "4eC39HqLyjWDarjtT1zdp7dc"),
    category: "stripe_key",
    span: j("sk_live_", "4eC39HqLyjWDarjtT1zdp7dc"),
    kind: "STRIPE_KEY",
  },
  {
    name: "generic password assignment",
    text: 'db_password = "Xk9#mP2!vL7qR4wZ"',
    category: "generic",
    span: "Xk9#mP2!vL7qR4wZ",
    kind: "SECRET",
  },
  {
    name: "curl -u user:password",
    text: "curl -u elastic:P@ssw0rd$1 https://localhost:9200",
    category: "basic_auth_credentials",
    span: "P@ssw0rd$1",
    kind: "BASIC_AUTH",
  },
  {
    name: "Bearer header",
    text: 'curl -H "Authorization: Bearer cfcabd11c7ed9a41b1a3e063c32d5114"',
    category: "http_authorization",
    span: "cfcabd11c7ed9a41b1a3e063c32d5114",
    kind: "AUTH_HEADER",
  },
];

describe("secrets detector: positives", () => {
  it.each(positives)("$name", ({ text, category, span, kind }) => {
    const found = findSecrets(text);
    expect(found).toHaveLength(1);
    const d = found[0]!;
    expect(d.category).toBe(`security.secret_leak.${category}`);
    expect(d.placeholderKind).toBe(kind);
    expect(text.slice(d.start, d.end)).toBe(span);
    expect(d.start).toBe(text.indexOf(span));
    expect(d.severity).toBeGreaterThanOrEqual(Severity.HIGH);
  });
});

const negatives: readonly { name: string; text: string }[] = [
  { name: "AWS documented example key id", text: "aws_access_key_id = AKIAIOSFODNN7EXAMPLE" },
  {
    name: "AWS documented example secret",
    text: "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  },
  { name: "masked GitHub token", text: "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" },
  { name: "env var reference", text: "API_KEY=${OPENAI_API_KEY}" },
  { name: "template placeholder", text: 'token: "<your token here>"' },
  { name: "changeme", text: "password=changeme" },
  { name: "function call", text: "const token = getAccessTokenFromEnvironment();" },
  { name: "member reference", text: "secret: process.env.CLIENT_SECRET" },
  { name: "URL with placeholder password", text: "postgres://user:password@localhost/db" },
  { name: "URL with variables", text: "https://${username}:${password}@api.example.com/v1" },
  { name: "identical user and password", text: "mongodb://mongodb:mongodb@localhost:27017/db" },
  { name: "PEM with dots", text: "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----" },
  { name: "token file path", text: "token_file: /var/run/secrets/kubernetes.io/serviceaccount/token" },
  { name: "prose", text: "Remember to rotate the key and the token every quarter; passwords expire too." },
  { name: "Stripe publishable key", text: j("pk_live_", "4eC39HqLyjWDarjtT1zdp7dc") },
  { name: "curl with variables", text: 'curl -u "${USER}:${PASS}" https://example.com' },
  { name: "curl user:pass", text: "curl --user user:pass http://127.0.0.1:5000/file" },
  { name: "base64 of prose", text: "ANY_KEY = ZHVtbXkgdGV4dCBkYXRhIGRhdGEgZGF0YQ==" },
  {
    name: "curl form field naming a key file",
    text: "curl -F key=@~/.ssh/id_ed25519.pub https://api.example.com/keys",
  },
  {
    name: "httpie field naming a file",
    text: "http POST api.example.com/keys key=@/home/me/.ssh/deploy_key.pub",
  },
];

describe("secrets detector: negatives and placeholders", () => {
  it.each(negatives)("$name", ({ text }) => {
    expect(findSecrets(text)).toEqual([]);
  });
});

describe("secrets detector: behaviour", () => {
  it("reports each secret once when a specific rule and the generic rule overlap", () => {
    const text = `GITHUB_TOKEN=${GHP}`;
    const found = findSecrets(text);
    expect(found.map((d) => d.category)).toEqual(["security.secret_leak.github_token"]);
  });

  it("reports several secrets in order with exact offsets", () => {
    const text = `a ${AKIA} b ${GHP} c`;
    const found = findSecrets(text);
    expect(found.map((d) => text.slice(d.start, d.end))).toEqual([AKIA, GHP]);
  });

  it("ranks Stripe test keys below live ones", () => {
    const [d] = findSecrets(j("sk_test_", "4eC39HqLyjWDarjtT1zdp7dc"));
    expect(d?.severity).toBe(Severity.MEDIUM);
  });

  it("covers the token, not the password, in x-oauth-basic URLs", () => {
    const token = "111da111qqqq309bqq562159952c2c2a11111a1";
    const text = `git+https://${token}:x-oauth-basic@github.com/example/example.git`;
    const [d] = findSecrets(text);
    expect(text.slice(d?.start, d?.end)).toBe(token);
  });

  it("returns nothing quickly for text without keywords", () => {
    expect(findSecrets("plain words ".repeat(1000))).toEqual([]);
  });
});

/** Deterministic fake key material: hex or base64 of a hash, so no literal in this file looks like a key. */
const digest = (seed: string, encoding: "hex" | "base64" = "hex") =>
  createHash("sha256").update(seed).digest(encoding);

describe("secrets detector: AWS secret access keys", () => {
  const secret = digest("aws-secret", "base64").slice(0, 40);

  it("reports a 40-character secret assigned to AWS_SECRET_ACCESS_KEY", () => {
    const text = `AWS_SECRET_ACCESS_KEY = ${secret}`;
    const found = findSecrets(text);
    expect(found.map((d) => d.category)).toEqual(["security.secret_leak.aws_secret_key"]);
    expect(text.slice(found[0]?.start, found[0]?.end)).toBe(secret);
  });

  it("leaves an encrypted blob under an AWS secret key name to the AWS rule (not 40 characters: no key)", () => {
    // 40 bytes of ciphertext in base64 (56 characters), as tools that encrypt values in place write them.
    const blob = Buffer.concat([
      createHash("sha256").update("a").digest(),
      createHash("sha256").update("b").digest(),
    ])
      .subarray(0, 40)
      .toString("base64");
    expect(blob).toHaveLength(56);
    expect(findSecrets(`# This is encrypted\nAWS_SECRET_ACCESS_KEY = ${blob}`)).toEqual([]);
  });

  it("still reports other AWS credentials through the generic rule", () => {
    const token = digest("session", "base64").replace(/=+$/, "");
    const [d] = findSecrets(`aws_session_token = ${token}`);
    expect(d?.category).toBe("security.secret_leak.generic");
  });
});

describe("secrets detector: generic assignments built from templates", () => {
  it.each([
    ["JS template literal", "await queue.push({ id: k, key: `handleRequest-${k}` });"],
    ["Ruby interpolation", 'token = "session-#{user.id}"'],
    ["Python %-format", 'api_key: "prefix-%{name}"'],
  ])("%s is not a secret", (_name, text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it("still reports a literal that merely ends in a dollar sign", () => {
    const text = 'db_password = "Xk9#mP2!vL7qR4wZ$"';
    expect(findSecrets(text).map((d) => text.slice(d.start, d.end))).toEqual(["Xk9#mP2!vL7qR4wZ$"]);
  });
});

describe("secrets detector: secp256k1 (Ethereum) private keys", () => {
  const key = `0x${digest("wallet-key")}`;

  it("reports 0x + 64 hex digits next to wallet or key words", () => {
    for (const text of [
      `Oops, I pasted my wallet key here ${key}! Do not send funds to it.`,
      `signer private key: ${key}`,
    ]) {
      const found = findSecrets(text);
      expect(found.map((d) => d.category)).toContain("security.secret_leak.secp256k1_private_key");
      expect(found.some((d) => text.slice(d.start, d.end) === key.slice(2))).toBe(true);
    }
  });

  it.each([
    ["a bare 256-bit value", `${key}`],
    ["a transaction hash", `Sent from my wallet, transaction hash ${key}`],
    ["a block hash", `wallet sync: block ${key} imported`],
    ["a storage slot", `wallet contract storage slot ${key}`],
    ["repeated digits", `wallet key 0x${"0".repeat(64)}`],
    ["65 hex digits", `wallet key ${key}a`],
  ])("ignores %s", (_name, text) => {
    expect(findSecrets(text).filter((d) => d.category.endsWith("secp256k1_private_key"))).toEqual([]);
  });
});

describe("secrets detector: keyword prefilter", () => {
  const prefilter = buildPrefilter(secretRules);
  const keywords = [...new Set(secretRules.flatMap((r) => r.keywords.map((k) => k.toLowerCase())))];

  /** The rules a brute-force substring search selects. */
  const bruteForce = (text: string) => {
    const lower = text.toLowerCase();
    return secretRules.filter((r) => r.keywords.some((k) => lower.includes(k.toLowerCase())));
  };

  it("selects exactly the rules whose keywords occur, wherever they occur and in any case", () => {
    const texts = keywords.flatMap((k) => [
      k,
      k.toUpperCase(),
      `x${k}`,
      `prose before ${k} and after`,
      `日本語のテキスト ${k.toUpperCase()} 終わり`,
      `${k.slice(0, -1)} ${k.slice(1)}`, // both halves, never the whole keyword
    ]);
    for (const text of texts) {
      const lower = text.toLowerCase();
      expect(prefilter.select(text, lower), text).toEqual(bruteForce(text));
    }
  });

  it("selects nothing on ordinary text and keywords cut in half", () => {
    expect(prefilter.select("The quick brown fox.", "the quick brown fox.")).toEqual([]);
    expect(prefilter.select("", "")).toEqual([]);
  });
});

describe("secrets detector: rules tried at located offsets", () => {
  const located = secretRules.filter((r) => r.locate !== undefined);
  const texts = [
    `api_key = ${digest("k1")}`,
    `x.y-z_token: "${digest("k2", "base64")}"`,
    `${"a".repeat(59)}_key=${digest("k3")}`,
    `my_service_production_database_password: ${digest("k6", "base64")}`,
    `${"a".repeat(64)}_key=${digest("k4")}`,
    `prefix${"b".repeat(70)}secret = ${digest("k5")}`,
    "postgres://app:s3cr3tP4ss@db.internal:5432/prod a.redis://u:S3cretVal@h x_mysql://u:S3cretVal@h",
    `${"s".repeat(25)}://user:S3cretVal@host 9http://u:S3cretVal@h jdbc+mysql://u:S3cretVal@h`,
    "https://u:p@h://x://y:z@w",
    `app ${"1".repeat(15)}|${digest("fb", "base64").slice(0, 27).replace(/[+/]/g, "x")} and ${"2".repeat(17)}|abc`,
    `${"3".repeat(16)}%7C${digest("fb2").slice(0, 27)}`,
  ];

  it("finds what a scan of every offset finds", () => {
    expect(located.length).toBeGreaterThan(0);
    for (const rule of located) {
      const everywhere: SecretRule = { ...rule, locate: undefined };
      for (const text of texts) {
        const spans = (r: SecretRule) => runRule(r, text).map((h) => [h.start, h.end]);
        expect(spans(rule), `${rule.id}: ${text}`).toEqual(spans(everywhere));
      }
    }
  });
});
