import { describe, expect, it } from "vitest";
import { openapiDocument, schemaDocuments } from "../../../src/contract/schemas.js";

/** openapi/openapi.json: the endpoint contract of SPEC 4, linked only to schema files that exist. */

type Json = Record<string, unknown>;
const doc = openapiDocument() as Json;
const paths = doc["paths"] as Record<string, Record<string, Json>>;

function refs(node: unknown): string[] {
  if (node === null || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === "$ref" && typeof value === "string" ? [value] : refs(value),
  );
}

/** JSON pointer lookup (`~1` stands for `/`, as in "application~1json"). */
function at(node: unknown, pointer: string): unknown {
  for (const raw of pointer.replace(/^#?\//, "").split("/")) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    node = node !== null && typeof node === "object" ? (node as Json)[part] : undefined;
  }
  return node;
}

function operation(path: string, method: string): Json {
  const op = paths[path]?.[method];
  if (op === undefined) throw new Error(`${method.toUpperCase()} ${path} is not described`);
  return op;
}

describe("openapi.json", () => {
  it("is OpenAPI 3.1.0 with the 2020-12 dialect", () => {
    expect(doc["openapi"]).toBe("3.1.0");
    expect(doc["jsonSchemaDialect"]).toBe("https://json-schema.org/draft/2020-12/schema");
    expect((doc["info"] as Json)["title"]).toBe("Guard");
  });

  it("references only existing schema files and resolvable components", () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(10);
    for (const ref of all) {
      if (ref.startsWith("#/")) {
        expect(at(doc, ref), ref).toBeDefined();
      } else {
        const match = /^schemas\/([a-z-]+)\.json$/.exec(ref);
        expect(match, `${ref} is a schemas/<name>.json ref`).not.toBeNull();
        expect(schemaDocuments().has(match?.[1] ?? ""), `${ref} exists`).toBe(true);
      }
    }
  });

  it("reaches every schema file, directly or through the schemas' own refs", () => {
    const reached = new Set<string>();
    const queue = refs(doc)
      .filter((r) => r.startsWith("schemas/"))
      .map((r) => r.slice("schemas/".length));
    while (queue.length > 0) {
      const file = (queue.pop() ?? "").split("#")[0] ?? "";
      const name = file.replace(/\.json$/, "");
      if (file === "" || reached.has(name)) continue;
      reached.add(name);
      queue.push(...refs(schemaDocuments().get(name)));
    }
    expect([...reached].sort()).toEqual([...schemaDocuments().keys()].sort());
  });

  it("describes the four endpoints of SPEC 4 and the contract routes", () => {
    expect(Object.keys(paths).sort()).toEqual(
      [
        "/openapi.json",
        "/schema/v1/{name}.json",
        "/v1/evaluate",
        "/v1/health",
        "/v1/heartbeat",
        "/v1/limits",
      ].sort(),
    );
    expect(Object.keys(paths["/v1/evaluate"] ?? {})).toEqual(["post"]);
    expect(Object.keys(paths["/v1/heartbeat"] ?? {})).toEqual(["post"]);
    expect(Object.keys(paths["/v1/health"] ?? {})).toEqual(["get"]);
    expect(Object.keys(paths["/v1/limits"] ?? {})).toEqual(["get"]);
  });

  it("requires the bearer key everywhere but health and the contract routes", () => {
    expect(at(doc, "/components/securitySchemes/bearer")).toEqual(
      expect.objectContaining({ type: "http", scheme: "bearer" }),
    );
    expect(doc["security"]).toEqual([{ bearer: [] }]);
    for (const [path, method] of [
      ["/v1/health", "get"],
      ["/openapi.json", "get"],
      ["/schema/v1/{name}.json", "get"],
    ] as const) {
      expect(operation(path, method)["security"], path).toEqual([]);
    }
    for (const [path, method] of [
      ["/v1/evaluate", "post"],
      ["/v1/heartbeat", "post"],
      ["/v1/limits", "get"],
    ] as const) {
      expect(operation(path, method)["security"], path).toBeUndefined();
      expect(Object.keys(operation(path, method)["responses"] as Json)).toContain("401");
    }
  });

  it("gives evaluate its JSON and event-stream forms, the payload query and the guard-* headers", () => {
    const evaluate = operation("/v1/evaluate", "post");
    expect(at(evaluate, "/requestBody/content/application~1json/schema/$ref")).toBe(
      "schemas/guard-event.json",
    );
    expect(at(evaluate, "/requestBody/content/text~1event-stream/schema/type")).toBe("string");
    const parameters = evaluate["parameters"] as Json[];
    expect(parameters.find((p) => p["name"] === "payload")).toEqual(
      expect.objectContaining({ in: "query", schema: expect.objectContaining({ type: "boolean" }) }),
    );
    const headers = parameters.filter((p) => p["in"] === "header").map((p) => p["name"]);
    expect(headers.sort()).toEqual(
      [
        "guard-kind",
        "guard-step-id",
        "guard-llm-protocol",
        "guard-agent-id",
        "guard-agent-type",
        "guard-agent-workspace",
        "guard-agent-user",
        "guard-session-hint",
        "guard-connection",
        "guard-llm-endpoint",
        "guard-initiator",
        "guard-integration",
        "guard-head-release-bytes",
        "guard-fail-mode",
      ].sort(),
    );
    const responses = evaluate["responses"] as Json;
    for (const status of ["200", "400", "401", "402", "413", "429"])
      expect(responses[status], status).toBeDefined();
    expect(at(responses, "/200/content/application~1json/schema/$ref")).toBe("schemas/verdict.json");
    expect(at(responses, "/200/content/text~1event-stream")).toBeDefined();
    for (const status of ["400", "401", "402", "413", "429"]) {
      const response =
        (responses[status] as Json)["$ref"] === undefined
          ? responses[status]
          : at(doc, (responses[status] as Json)["$ref"] as string);
      expect(at(response, "/content/application~1json/schema/$ref"), status).toBe("schemas/error.json");
    }
  });

  it("serves each schema by a name from the list of files", () => {
    const name = (operation("/schema/v1/{name}.json", "get")["parameters"] as Json[])[0];
    expect(at(name, "/schema/enum")).toEqual([...schemaDocuments().keys()].sort());
  });

  it("answers heartbeat, limits and health with their schemas", () => {
    const schemaOf = (path: string, method: string) =>
      at(operation(path, method)["responses"], "/200/content/application~1json/schema/$ref");
    expect(schemaOf("/v1/heartbeat", "post")).toBe("schemas/heartbeat-response.json");
    expect(schemaOf("/v1/limits", "get")).toBe("schemas/limits-response.json");
    expect(schemaOf("/v1/health", "get")).toBe("schemas/health.json");
    expect(at(operation("/v1/heartbeat", "post"), "/requestBody/content/application~1json/schema/$ref")).toBe(
      "schemas/heartbeat.json",
    );
  });
});
