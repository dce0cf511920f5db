import type { ErrorObject } from "ajv";

/**
 * Turns Ajv's errors into the `details` items of a 400 (SPEC 7): `{code, keys?, path, message}`.
 * Ajv reports one error per extra key and one per failing branch of an `anyOf`; a caller wants one
 * item per problem it has to fix, so extra keys are grouped per object and composite failures are
 * summarised. Paths are arrays (object keys as strings, array indices as numbers), never JSON
 * pointers, so that keys containing `/` or `.` stay unambiguous.
 */

export type IssueCode =
  | "unrecognized_keys"
  | "missing"
  | "invalid_type"
  | "invalid_enum_value"
  | "invalid_value";
export type IssuePath = (string | number)[];

export interface ValidationIssue {
  code: IssueCode;
  /** unrecognized_keys: every refused key of the object at `path`; missing: alternatives of a one-of. */
  keys?: string[];
  path: IssuePath;
  message: string;
}

/** Optional explanations a caller-facing validator adds to particular refusals. */
export interface IssueHints {
  /** Why `key` of the object at `path` is refused, beyond "not listed". */
  unrecognizedKey?(path: IssuePath, key: string): string | undefined;
  /** Why `value` at `path` is outside its enumeration, beyond the allowed list. */
  enumValue?(path: IssuePath, value: unknown): string | undefined;
  /** What to send for the missing field `key` of the object at `path`. */
  missing?(path: IssuePath, key: string): string | undefined;
}

/** Maps Ajv errors for `data` to details; `subject` names the body in messages ("the event"). */
export function issuesFromAjv(
  errors: readonly ErrorObject[],
  data: unknown,
  subject: string,
  hints: IssueHints = {},
): ValidationIssue[] {
  const composites = errors.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf");
  const branchOf = (e: ErrorObject): boolean =>
    composites.some((c) => c !== e && e.schemaPath.startsWith(`${c.schemaPath}/`));
  const where = (path: IssuePath): string => (path.length === 0 ? subject : `\`${path.join(".")}\``);

  const issues: ValidationIssue[] = [];
  // Extra keys of one object become one item; the Map keeps the position of the first one.
  const unrecognized = new Map<string, { issue: ValidationIssue; notes: string[] }>();

  for (const error of errors) {
    if (branchOf(error) || error.keyword === "if") continue; // summarised by the composite / the `then` errors
    const { path, value } = locate(data, error.instancePath);
    const params = error.params as Record<string, unknown>;
    switch (error.keyword) {
      case "additionalProperties": {
        const key = String(params["additionalProperty"]);
        let group = unrecognized.get(error.instancePath);
        if (group === undefined) {
          group = { issue: { code: "unrecognized_keys", keys: [], path, message: "" }, notes: [] };
          unrecognized.set(error.instancePath, group);
          issues.push(group.issue);
        }
        group.issue.keys?.push(key);
        const note = hints.unrecognizedKey?.(path, key);
        if (note !== undefined) group.notes.push(note);
        break;
      }
      case "required": {
        const key = String(params["missingProperty"]);
        const fieldPath = [...path, key];
        const note = hints.missing?.(path, key);
        issues.push({
          code: "missing",
          path: fieldPath,
          message: `${where(fieldPath)} is required${note === undefined ? "" : `: ${note}`}`,
        });
        break;
      }
      case "type":
        issues.push({
          code: "invalid_type",
          path,
          message: `${where(path)} must be ${typeNames(params["type"])}`,
        });
        break;
      case "enum":
      case "const": {
        const allowed =
          error.keyword === "enum" ? (params["allowedValues"] as unknown[]) : [params["allowedValue"]];
        const note = hints.enumValue?.(path, value);
        const list = allowed.map((v) => `\`${String(v)}\``).join(", ");
        issues.push({
          code: "invalid_enum_value",
          path,
          message:
            `${where(path)} must be ${allowed.length === 1 ? list : `one of ${list}`}, got ${preview(value)}` +
            (note === undefined ? "" : `: ${note}`),
        });
        break;
      }
      case "anyOf":
      case "oneOf":
        issues.push(summariseComposite(error, errors, path, where));
        break;
      case "not":
        issues.push({
          code: "invalid_value",
          path,
          message: `${where(path)} violates the rule at ${error.schemaPath}`,
        });
        break;
      case "minLength":
        issues.push({
          code: "invalid_value",
          path,
          message:
            params["limit"] === 1
              ? `${where(path)} must not be empty`
              : `${where(path)} must have at least ${String(params["limit"])} characters`,
        });
        break;
      default:
        issues.push({
          code: "invalid_value",
          path,
          message: `${where(path)} ${error.message ?? "is invalid"}`,
        });
    }
  }

  for (const { issue, notes } of unrecognized.values()) {
    const keys = (issue.keys ?? []).map((k) => `\`${k}\``).join(", ");
    const head = `${where(issue.path)} has unrecognized key${issue.keys?.length === 1 ? "" : "s"} ${keys}`;
    issue.message = notes.length === 0 ? head : `${head}; ${notes.join("; ")}`;
  }
  return issues;
}

/** One item for a failed anyOf / oneOf: "one of these fields", "one of these types", or a plain refusal. */
function summariseComposite(
  composite: ErrorObject,
  errors: readonly ErrorObject[],
  path: IssuePath,
  where: (path: IssuePath) => string,
): ValidationIssue {
  const branches = errors.filter((e) => e.schemaPath.startsWith(`${composite.schemaPath}/`));
  const sameSpot = branches.every((e) => e.instancePath === composite.instancePath);
  if (sameSpot && branches.length > 0 && branches.every((e) => e.keyword === "required")) {
    const keys = branches.map((e) => String((e.params as Record<string, unknown>)["missingProperty"]));
    return {
      code: "missing",
      keys,
      path,
      message: `${where(path)} needs at least one of ${keys.map((k) => `\`${k}\``).join(", ")}`,
    };
  }
  if (sameSpot && branches.length > 0 && branches.every((e) => e.keyword === "type")) {
    const types = branches.map((e) => typeNames((e.params as Record<string, unknown>)["type"]));
    return { code: "invalid_type", path, message: `${where(path)} must be ${types.join(" or ")}` };
  }
  return { code: "invalid_value", path, message: `${where(path)} matches none of the allowed forms` };
}

/**
 * Decodes a JSON pointer against the data it points into, so that array indices come out as numbers
 * and object keys that merely look numeric stay strings. Reads own properties only.
 */
function locate(data: unknown, pointer: string): { path: IssuePath; value: unknown } {
  const path: IssuePath = [];
  let value: unknown = data;
  if (pointer === "") return { path, value };
  for (const raw of pointer.slice(1).split("/")) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(value)) {
      const index = Number(segment);
      path.push(index);
      value = value[index];
    } else {
      path.push(segment);
      value =
        value !== null && typeof value === "object" && Object.hasOwn(value, segment)
          ? (value as Record<string, unknown>)[segment]
          : undefined;
    }
  }
  return { path, value };
}

function typeNames(type: unknown): string {
  const names = Array.isArray(type) ? type.map(String) : String(type).split(",");
  return names
    .map((t) => (t === "object" || t === "array" || t === "integer" ? `an ${t}` : `a ${t}`))
    .join(" or ");
}

/** A short rendering of a refused value: enough to recognise it, never a whole body echoed back. */
function preview(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value);
    return text.length > 66 ? `${text.slice(0, 63)}..."` : text;
  }
  return Array.isArray(value) ? "an array" : "an object";
}
