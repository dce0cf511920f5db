import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { findRepoRoot } from "../../../src/contract/repo-root.js";
import { loadContract, SCHEMA_BASE_URI, schemaDocuments, schemaId } from "../../../src/contract/schemas.js";

/** The schema files themselves: well-formed, compiled, linked, documented, and safe to serve. */

type Json = Record<string, unknown>;
const contract = loadContract();
const files = readdirSync(join(contract.root, "openapi", "schemas")).filter((f) => f.endsWith(".json"));
const CONDITIONAL = new Set(["if", "then", "else", "not", "allOf", "anyOf", "oneOf"]);

/** Every schema object reachable through structural keywords (conditionals excluded), with its pointer. */
function structural(schema: unknown, pointer = "#"): Array<[string, Json]> {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return [];
  const out: Array<[string, Json]> = [[pointer, schema as Json]];
  for (const [key, value] of Object.entries(schema)) {
    if (CONDITIONAL.has(key)) continue;
    if (key === "properties" || key === "$defs") {
      for (const [name, child] of Object.entries(value as Json))
        out.push(...structural(child, `${pointer}/${key}/${name}`));
    } else if (key === "items" || key === "additionalProperties") {
      out.push(...structural(value, `${pointer}/${key}`));
    }
  }
  return out;
}

/** Every `$ref` value anywhere in a document. */
function refs(node: unknown): string[] {
  if (node === null || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === "$ref" && typeof value === "string" ? [value] : refs(value),
  );
}

function resolvePointer(doc: unknown, fragment: string): unknown {
  let node = doc;
  for (const part of fragment
    .replace(/^\//, "")
    .split("/")
    .filter((p) => p !== "")) {
    node = node !== null && typeof node === "object" ? (node as Json)[part] : undefined;
  }
  return node;
}

describe("schema files", () => {
  it("are the thirteen documents of the contract", () => {
    expect([...schemaDocuments().keys()].sort()).toEqual(
      [
        "continuation",
        "error",
        "finding",
        "guard-event",
        "health",
        "heartbeat",
        "heartbeat-response",
        "limits",
        "limits-response",
        "obligation",
        "span",
        "verdict",
        "verdict-timing",
      ].sort(),
    );
    expect(files).toHaveLength(13);
  });

  for (const file of files) {
    const name = file.replace(/\.json$/, "");
    describe(file, () => {
      const doc = schemaDocuments().get(name) as Json;

      it("declares draft 2020-12 and its versioned $id, and compiles", () => {
        expect(doc["$schema"]).toBe("https://json-schema.org/draft/2020-12/schema");
        expect(doc["$id"]).toBe(`${SCHEMA_BASE_URI}${file}`);
        expect(typeof contract.ajv.getSchema(schemaId(name))).toBe("function");
      });

      it("resolves every $ref to an existing schema file and pointer", () => {
        for (const ref of refs(doc)) {
          const [target = "", fragment = ""] = ref.split("#");
          expect(target === "" || /^[a-z-]+\.json$/.test(target), `${ref} is a relative file ref`).toBe(true);
          const targetDoc = target === "" ? doc : schemaDocuments().get(target.replace(/\.json$/, ""));
          expect(targetDoc, `${ref} names an existing file`).toBeDefined();
          expect(resolvePointer(targetDoc, fragment), `${ref} resolves`).toBeDefined();
        }
      });

      it("describes every property and declares every required key", () => {
        for (const [pointer, schema] of structural(doc)) {
          const properties = (schema["properties"] ?? {}) as Json;
          for (const [key, property] of Object.entries(properties)) {
            expect(typeof (property as Json)["description"], `${pointer}/properties/${key}`).toBe("string");
          }
          for (const key of (schema["required"] ?? []) as string[]) {
            expect(Object.keys(properties), `${pointer} requires ${key}`).toContain(key);
          }
        }
        expect(typeof doc["description"]).toBe("string");
      });
    });
  }

  it("closes the objects the specification closes", () => {
    const docs = schemaDocuments() as ReadonlyMap<string, Json>;
    expect(docs.get("guard-event")?.["additionalProperties"]).toBe(false);
    expect(docs.get("verdict")?.["additionalProperties"]).toBe(false);
    expect(docs.get("obligation")?.["additionalProperties"]).toBe(false);
    expect(resolvePointer(docs.get("obligation"), "/properties/artifact/additionalProperties")).toBe(false);
  });

  it("lists exactly the GuardEvent fields of SPEC 2.1", () => {
    const event = schemaDocuments().get("guard-event") as Json;
    const required = [
      "kind",
      "step_id",
      "agent_id",
      "agent_type",
      "agent_workspace",
      "agent_user",
      "llm_protocol",
      "payload",
    ];
    const optional = [
      "integration",
      "connection",
      "session_hint",
      "obligation_results",
      "redaction",
      "initiator",
      "llm_endpoint",
      "transport",
    ];
    expect(event["required"]).toEqual(required);
    expect(Object.keys(event["properties"] as Json).sort()).toEqual([...required, ...optional].sort());
  });

  it("serves frozen documents, so no handler can edit the contract", () => {
    const verdict = schemaDocuments().get("verdict") as Json;
    expect(Object.isFrozen(verdict)).toBe(true);
    expect(Object.isFrozen(verdict["properties"])).toBe(true);
    expect(() => {
      (verdict as { title: string }).title = "changed";
    }).toThrow(TypeError);
  });

  it("runs every pattern in linear time on hostile input", () => {
    const patterns = files.flatMap((f) =>
      structural(schemaDocuments().get(f.replace(/\.json$/, ""))).flatMap(([, s]) =>
        typeof s["pattern"] === "string" ? [s["pattern"]] : [],
      ),
    );
    expect(patterns.length).toBeGreaterThanOrEqual(5);
    const units = ["a", "A", "_", "1", ".", "A_", "1_", "a.", ":", "-"];
    for (const pattern of patterns) {
      const re = new RegExp(pattern, "u");
      const started = performance.now();
      for (const unit of units) {
        for (const prefix of ["", "${X_", "privacy.", "2025-06-01T12:00:00"]) {
          re.test(`${prefix}${unit.repeat(20_000)}!`);
        }
      }
      expect(performance.now() - started, pattern).toBeLessThan(250);
    }
  });
});

describe("findRepoRoot", () => {
  it("finds the same root from src/ and from the compiled dist/src/", () => {
    const root = findRepoRoot();
    expect(root).toBe(contract.root);
    const compiled = pathToFileURL(join(root, "dist", "src", "contract", "schemas.js")).href;
    expect(findRepoRoot(compiled)).toBe(root);
  });

  it("fails loudly outside a repository", () => {
    expect(() => findRepoRoot(pathToFileURL("/nonexistent-guard-dir/x.js").href)).toThrow(/no directory/);
  });
});
