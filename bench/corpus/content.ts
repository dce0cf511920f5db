import type { Random } from "./random.js";

/**
 * Bodies of tool output in the four shapes agents mostly read back: source code, logs, web
 * pages and JSON API answers. Each is built line by line up to a target size so the corpus
 * controls bytes precisely while the text keeps the token mix (identifiers, numbers,
 * punctuation, markup) the detectors actually scan.
 */

export type ContentKind = "code" | "log" | "html" | "json";

const WORDS = (
  "the of and to in is for on that with as by this are be from it at an or was which can not " +
  "request response server client session cache queue worker retry timeout config build deploy " +
  "release version module package import export return value error status user account order " +
  "invoice payment report metric latency throughput record table index query schema migration " +
  "token budget limit window event stream buffer parser handler router service detector policy"
).split(" ");

const IDENTS = [
  "items",
  "orderId",
  "userRecord",
  "handleRequest",
  "parseConfig",
  "retryCount",
  "buffer",
  "result",
  "options",
  "context",
  "payload",
  "cacheKey",
  "session",
  "invoiceTotal",
  "formatDate",
];

function sentence(rng: Random, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(rng.pick(WORDS));
  const text = out.join(" ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function codeLines(rng: Random, i: number): string[] {
  const fn = `${rng.pick(IDENTS)}${i}`;
  const a = rng.pick(IDENTS);
  const b = rng.pick(IDENTS);
  return [
    `/** ${sentence(rng, rng.int(6, 14))} */`,
    `export async function ${fn}(${a}: Record<string, unknown>, ${b} = ${rng.int(0, 5000)}): Promise<number> {`,
    `  const total = Object.keys(${a}).length * ${rng.int(2, 64)};`,
    `  if (total > ${b}) throw new Error("${sentence(rng, 4)}");`,
    `  for (let k = 0; k < total; k++) await queue.push({ id: k, key: \`${rng.pick(IDENTS)}-\${k}\` });`,
    `  return total + ${rng.int(0, 99)};`,
    "}",
    "",
  ];
}

function logLines(rng: Random, i: number): string[] {
  const level = rng.pick(["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"]);
  const ms = String(i % 1000).padStart(3, "0");
  const path = `/api/v${rng.int(1, 3)}/${rng.pick(["orders", "users", "invoices", "reports"])}/${rng.int(1, 99999)}`;
  return [
    `2025-03-14T10:${String(rng.int(0, 59)).padStart(2, "0")}:${String(rng.int(0, 59)).padStart(2, "0")}.${ms}Z ${level} [worker-${rng.int(1, 8)}] ${rng.pick(["GET", "POST", "PUT"])} ${path} status=${rng.pick([200, 200, 201, 204, 404, 500])} duration_ms=${rng.int(1, 900)} trace=${rng.int(1e9, 9e9).toString(16)}`,
  ];
}

function htmlLines(rng: Random, i: number): string[] {
  if (i % 6 === 0) return [`<h2 id="s${i}">${sentence(rng, rng.int(3, 7))}</h2>`];
  return [
    `<p>${sentence(rng, rng.int(12, 40))} <a href="/docs/${rng.pick(WORDS)}-${i}">${rng.pick(WORDS)}</a> ${sentence(rng, rng.int(8, 20))}</p>`,
  ];
}

function jsonLines(rng: Random, i: number): string[] {
  const item = {
    id: `ord_${rng.int(1e6, 9e6)}`,
    index: i,
    status: rng.pick(["paid", "open", "refunded", "void"]),
    amount: { value: rng.int(100, 99999) / 100, currency: rng.pick(["USD", "EUR", "GBP"]) },
    tags: [rng.pick(WORDS), rng.pick(WORDS)],
    note: sentence(rng, rng.int(4, 12)),
    updated_at: `2025-0${rng.int(1, 9)}-1${rng.int(0, 9)}T0${rng.int(0, 9)}:00:00Z`,
  };
  return JSON.stringify(item, null, 2)
    .split("\n")
    .map((l) => `    ${l}`);
}

const LINES: Record<ContentKind, (rng: Random, i: number) => string[]> = {
  code: codeLines,
  log: logLines,
  html: htmlLines,
  json: jsonLines,
};

const HEAD: Record<ContentKind, string> = {
  code: 'import { queue } from "./queue.js";\n',
  log: "",
  html: "<!doctype html>\n<html><head><title>Docs</title></head><body><main>\n",
  json: '{\n  "object": "list",\n  "data": [\n',
};

const TAIL: Record<ContentKind, string> = {
  code: "",
  log: "",
  html: "</main></body></html>\n",
  json: '\n  ],\n  "has_more": true\n}\n',
};

/**
 * About `bytes` of `kind` output, with each `plants` line inserted at a random line boundary
 * (JSON gets them as a `"note"` line of its own so the document stays readable).
 */
export function toolOutput(rng: Random, kind: ContentKind, bytes: number, plants: readonly string[]): string {
  const lines: string[] = [];
  let size = HEAD[kind].length + TAIL[kind].length;
  for (let i = 0; size < bytes; i++) {
    for (const line of LINES[kind](rng, i)) {
      lines.push(line);
      size += line.length + 1;
    }
  }
  for (const plant of plants) {
    const at = rng.int(0, lines.length);
    lines.splice(at, 0, kind === "json" ? `    // note: ${plant.replaceAll("\n", " ")}` : plant);
  }
  const body = kind === "json" ? lines.join("\n").replaceAll("    }\n    {", "    },\n    {") : lines.join("\n");
  return `${HEAD[kind]}${body}\n${TAIL[kind]}`;
}

/** A few sentences of assistant or user prose. */
export function prose(rng: Random, sentences: number): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) out.push(sentence(rng, rng.int(6, 18)));
  return out.join(" ");
}
