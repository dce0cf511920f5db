import { describe, expect, it } from "vitest";
import { expectPositionals, oneOf, parseArgs } from "../../../src/cli/args.js";
import { UsageError } from "../../../src/cli/errors.js";
import { parseInstant, formatAge } from "../../../src/cli/time.js";

describe("parseArgs", () => {
  const spec = { strings: ["org", "limit"], flags: ["follow"] };

  it("reads --name value, --name=value, flags, -h and positionals", () => {
    const args = parseArgs(["add", "--org", "acme", "--limit=5", "--follow", "fp1", "--json", "-h"], spec);
    expect(args.positionals).toEqual(["add", "fp1"]);
    expect(args.string("org")).toBe("acme");
    expect(args.int("limit", 20, 1, 100)).toBe(5);
    expect(args.flag("follow")).toBe(true);
    expect(args.flag("json")).toBe(true);
    expect(args.flag("help")).toBe(true);
  });

  it("treats everything after -- as positional", () => {
    expect(parseArgs(["--", "--org", "-x"], spec).positionals).toEqual(["--org", "-x"]);
  });

  it("refuses unknown options, missing values, repeated options and values on flags", () => {
    expect(() => parseArgs(["--orgg", "acme"], spec)).toThrow(UsageError);
    expect(() => parseArgs(["-x"], spec)).toThrow(/unknown option -x/);
    expect(() => parseArgs(["--org"], spec)).toThrow(/--org needs a value/);
    expect(() => parseArgs(["--org", "--follow"], spec)).toThrow(/needs a value/);
    expect(() => parseArgs(["--org", "a", "--org", "b"], spec)).toThrow(/given twice/);
    expect(() => parseArgs(["--follow=yes"], spec)).toThrow(/takes no value/);
  });

  it("checks integer bounds and allowed values", () => {
    expect(parseArgs([], spec).int("limit", 20, 1, 100)).toBe(20);
    expect(() => parseArgs(["--limit", "0"], spec).int("limit", 20, 1, 100)).toThrow(/from 1 to 100/);
    expect(() => parseArgs(["--limit", "2.5"], spec).int("limit", 20, 1, 100)).toThrow(UsageError);
    const decision = parseArgs(["--org", "maybe"], spec);
    expect(() => oneOf(decision, "org", ["allow", "block"])).toThrow(/one of allow, block/);
    expect(oneOf(parseArgs([], spec), "org", ["a"])).toBeUndefined();
  });

  it("counts positionals", () => {
    expect(expectPositionals(parseArgs(["x"]), ["id"])).toEqual(["x"]);
    expect(() => expectPositionals(parseArgs([]), ["id"])).toThrow(/missing <id>/);
    expect(() => expectPositionals(parseArgs(["x", "y"]), ["id"])).toThrow(/unexpected argument y/);
  });
});

describe("time bounds", () => {
  const now = Date.parse("2025-06-01T12:00:00.000Z");

  it("reads durations back from now and RFC 3339 instants", () => {
    expect(parseInstant("15m", now, "since")).toBe("2025-06-01T11:45:00.000Z");
    expect(parseInstant("2h", now, "since")).toBe("2025-06-01T10:00:00.000Z");
    expect(parseInstant("7d", now, "since")).toBe("2025-05-25T12:00:00.000Z");
    expect(parseInstant("2025-06-01T14:00:00+02:00", now, "since")).toBe("2025-06-01T12:00:00.000Z");
    expect(() => parseInstant("yesterday", now, "since")).toThrow(/--since must be a duration/);
  });

  it("formats ages in the units that matter", () => {
    expect(formatAge(45_000)).toBe("45s");
    expect(formatAge(750_000)).toBe("12m30s");
    expect(formatAge(3 * 3_600_000 + 5 * 60_000)).toBe("3h5m");
    expect(formatAge(52 * 3_600_000)).toBe("2d4h");
  });
});
