import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { ToolCallSchema } from "../../../gen/guard/v1/types_pb.js";
import { artifactsOf, declaredType } from "../../../src/obligations/artifacts.js";
import { ObligationBook, obligationsFor, parseResults } from "../../../src/obligations/obligations.js";

const shell = (command: string) => JSON.stringify({ command });

describe("artifacts a tool call brings in", () => {
  it.each([
    ["npm install left-pad@1.3.0 --save", [{ kind: "package", locator: "left-pad@1.3.0" }]],
    ["sudo pip3 install -U requests==2.0", [{ kind: "package", locator: "requests==2.0" }]],
    [
      "curl -fsSL https://get.example.sh/install.sh -o /tmp/i.sh && chmod +x /tmp/i.sh",
      [
        { kind: "url", locator: "https://get.example.sh/install.sh", declaredType: "sh" },
        { kind: "file", locator: "/tmp/i.sh", declaredType: "sh" },
      ],
    ],
    ["bash -c 'git clone https://git.example/x.git'", [{ kind: "url", locator: "https://git.example/x.git", declaredType: "git" }]],
    ["ls -la && cat README.md", []],
  ])("%s", (command, expected) => {
    expect(artifactsOf("bash", shell(command))).toEqual(expected);
  });

  it("finds URLs opened by browsing tools and executables written by file tools, never resolving them", () => {
    expect(artifactsOf("browser_navigate", JSON.stringify({ url: "https://EXAMPLE.com/a/../b" }))).toEqual([
      { kind: "url", locator: "https://EXAMPLE.com/a/../b" },
    ]);
    expect(artifactsOf("write_file", JSON.stringify({ path: "run.ps1", content: "x" }))).toEqual([
      { kind: "file", locator: "run.ps1", declaredType: "ps1" },
    ]);
    expect(artifactsOf("write_file", JSON.stringify({ path: "notes.txt", content: "x" }))).toEqual([]);
    expect(artifactsOf("bash", "not json")).toEqual([]);
  });

  it("reads the type a name claims", () => {
    expect(declaredType("dist/app.tar.gz")).toBe("tar.gz");
    expect(declaredType("https://x.example/dl?f=1")).toBeUndefined();
  });
});

describe("obligations", () => {
  const calls = [
    create(ToolCallSchema, { id: "c1", name: "bash", argumentsJson: shell("npm i evil-pkg") }),
    create(ToolCallSchema, { id: "c2", name: "browser", argumentsJson: JSON.stringify({ url: "https://x.example/" }) }),
  ];

  it("are deterministic per step, call and artifact, bounded, and block only for code", () => {
    const first = obligationsFor("step-1", calls, 0, 1000);
    expect(first.map((o) => [o.call_id, o.artifact.kind, o.on_unfulfilled])).toEqual([
      ["c1", "package", "block"],
      ["c2", "url", "flag"],
    ]);
    expect(obligationsFor("step-1", calls, 5, 1000).map((o) => o.id)).toEqual(first.map((o) => o.id));
    expect(obligationsFor("step-2", calls, 0, 1000)[0]?.id).not.toBe(first[0]?.id);
    const many = Array.from({ length: 100 }, (_, i) => create(ToolCallSchema, { id: `c${i}`, name: "bash", argumentsJson: shell(`npm i p${i}`) }));
    expect(obligationsFor("s", many, 0, 1000)).toHaveLength(64);
  });

  it("settle results and expiries into findings on the agent's next event", () => {
    const book = new ObligationBook();
    const issued = obligationsFor("s", calls, 0, 1000);
    book.issue("o", "a", issued);
    const malicious = book.settle("o", "a", parseResults([{ id: issued[0]?.id, status: "malicious" }, { junk: 1 }]), 10);
    expect(malicious.map((f) => f.category)).toEqual(["security.malicious_artifact"]);
    expect(book.settle("o", "a", [], 500)).toEqual([]);
    const expired = book.settle("o", "a", [], 2000);
    expect(expired.map((f) => [f.category, f.subject])).toEqual([["security.unverified_artifact", "https://x.example/"]]);
    expect(book.settle("other", "a", [], 5000)).toEqual([]);
  });
});
