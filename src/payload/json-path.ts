/**
 * Payload paths (DESIGN.md decision 2): dot-joined from `payload`, array indexes as
 * decimal segments. These helpers follow a path into a parsed body.
 */

export type JsonContainer = Record<string, unknown> | unknown[];

export interface Located {
  readonly parent: JsonContainer;
  readonly key: string | number;
  readonly value: unknown;
}

function isContainer(value: unknown): value is JsonContainer {
  return typeof value === "object" && value !== null;
}

/** The path's segments below `payload`, or undefined when it does not start there. */
export function pathSegments(path: string): string[] | undefined {
  const parts = path.split(".");
  if (parts[0] !== "payload") return undefined;
  return parts.slice(1);
}

/** Finds the value a path names inside `payload`; undefined when any step is missing. */
export function locate(payload: unknown, path: string): Located | undefined {
  const segments = pathSegments(path);
  if (!segments || segments.length === 0) return undefined;
  let parent: unknown = payload;
  for (let i = 0; i < segments.length - 1; i++) {
    parent = step(parent, segments[i] as string);
    if (parent === undefined) return undefined;
  }
  if (!isContainer(parent)) return undefined;
  const last = segments[segments.length - 1] as string;
  const key = Array.isArray(parent) ? index(last) : last;
  if (key === undefined) return undefined;
  const value = Array.isArray(parent) ? parent[key as number] : Object.hasOwn(parent, last) ? parent[last] : undefined;
  if (value === undefined) return undefined;
  return { parent, key, value };
}

function index(segment: string): number | undefined {
  return /^(0|[1-9]\d{0,8})$/.test(segment) ? Number(segment) : undefined;
}

function step(value: unknown, segment: string): unknown {
  if (Array.isArray(value)) {
    const i = index(segment);
    return i === undefined ? undefined : value[i];
  }
  if (isContainer(value) && Object.hasOwn(value, segment)) return (value as Record<string, unknown>)[segment];
  return undefined;
}

/** Replaces the value at a located place. */
export function assign(place: Located, value: unknown): void {
  if (Array.isArray(place.parent)) place.parent[place.key as number] = value;
  else place.parent[place.key as string] = value;
}
