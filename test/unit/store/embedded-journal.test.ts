import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EmbeddedStore } from "../../../src/store/embedded/embedded-store.js";
import { Journal } from "../../../src/store/embedded/journal.js";
import { readJournal } from "../../../src/store/embedded/read-lines.js";
import type { EventRecord } from "../../../src/store/records.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "guard-journal-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const event = (id: string, sha: string, bytes: number): EventRecord => ({
  event_id: id,
  received_at: "2026-01-01T00:00:00.000Z",
  org_id: "o",
  key_id: "k",
  kind: "step/request",
  step_id: id,
  agent_id: "a",
  agent_id_derived: false,
  agent_type: "",
  agent_user: "",
  workspace: "default",
  llm_protocol: "canonical",
  payload_sha256: sha,
  payload_bytes: bytes,
  verdict: { decision: "allow" },
});

describe("embedded journals", () => {
  it("write text, bytes and lines made of both, in order, one line each", async () => {
    const path = join(tempDir(), "j.jsonl");
    const journal = new Journal(path);
    await journal.append('{"a":1}');
    await journal.append(Buffer.from('{"b":"é"}'));
    await journal.append(['{"c":', Buffer.from("[1,2]"), "}"]);
    expect(journal.queued).toBe(3);
    await journal.flush();
    expect(journal.queued).toBe(0);
    expect(journal.written).toBe(3);
    expect(readJournal(path).records).toEqual([{ a: 1 }, { b: "é" }, { c: [1, 2] }]);
  });

  it("write many queued lines in order (more than one gathered write)", async () => {
    const path = join(tempDir(), "j.jsonl");
    const journal = new Journal(path);
    for (let i = 0; i < 3000; i++) await journal.append(i % 2 ? `{"i":${i}}` : [`{"i":`, Buffer.from(String(i)), "}"]);
    await journal.flush();
    expect(readJournal<{ i: number }>(path).records.map((r) => r.i)).toEqual([...Array(3000).keys()]);
  });

  it("keep the lines of a failed write and write them once the file can be opened again", async () => {
    const dir = join(tempDir(), "later");
    const path = join(dir, "j.jsonl");
    // No timed flush: the test decides when each flush runs.
    const journal = new Journal(path, undefined, 60_000);
    await journal.append('{"a":1}');
    await journal.flush();
    expect(journal.writeErrors).toBe(1);
    expect(journal.queued).toBe(1);
    mkdirSync(dir);
    await journal.append('{"b":2}');
    await journal.close();
    expect(journal.written).toBe(2);
    expect(readJournal(path).records).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it("write a line queued after close (issue 9: the file stays open between flushes, not after close)", async () => {
    const path = join(tempDir(), "j.jsonl");
    const journal = new Journal(path, undefined, 0);
    await journal.append('{"a":1}');
    await journal.close();
    await journal.append('{"b":2}');
    await journal.flush();
    expect(readJournal(path).records).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it("keep a raw body as sent, compact or pretty-printed, without tearing the payload journal", async () => {
    const dir = tempDir();
    const store = EmbeddedStore.open(dir);
    const compact = Buffer.from(' {"messages":[{"role":"user","content":"héllo"}]}\n');
    const pretty = Buffer.from('{\n  "messages": [\n    {"role": "user", "content": "a\\nb"}\n  ]\n}\n');
    await store.recordEvent(event("e1", "s1", compact.length), compact);
    await store.recordEvent(event("e2", "s2", pretty.length), pretty);
    await store.recordEvent(event("e3", "s1", compact.length), compact);
    await store.close();
    const { records, torn } = readJournal<{ sha256: string; body?: unknown; body_text?: string }>(
      join(dir, "payloads.jsonl"),
    );
    expect(torn).toBe(0);
    expect(records.map((r) => r.sha256)).toEqual(["s1", "s2"]);
    expect(records[0]?.body).toEqual({ messages: [{ role: "user", content: "héllo" }] });
    expect(Buffer.from(records[1]?.body_text ?? "")).toEqual(pretty);
    expect(readFileSync(join(dir, "events.jsonl"), "utf8").trim().split("\n")).toHaveLength(3);
  });
});
