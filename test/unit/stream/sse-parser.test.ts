import { describe, expect, it } from "vitest";
import { SseError } from "../../../src/stream/sse-error.js";
import { SseParser } from "../../../src/stream/sse-parser.js";
import { chunked, parseChunks } from "./helpers.js";

const bytes = (text: string): Uint8Array => Buffer.from(text, "utf8");
const parse = (text: string, chunkSize = 0) => parseChunks(chunked(bytes(text), chunkSize));

describe("SseParser: WHATWG field rules", () => {
  it("reads event, data and id; a frame without event is a 'message'", () => {
    const frames = parse("event: ping\ndata: {}\n\ndata: x\nid: 7\n\n");
    expect(frames.map(({ event, data, id }) => ({ event, data, id }))).toEqual([
      { event: "ping", data: "{}", id: undefined },
      { event: "message", data: "x", id: "7" },
    ]);
  });

  it("joins several data lines with LF and keeps empty ones", () => {
    expect(parse("data: a\ndata:\ndata: b\n\n")[0]?.data).toBe("a\n\nb");
  });

  it("removes exactly one space after the colon", () => {
    expect(parse("data:x\n\ndata: x\n\ndata:  x\n\n").map((f) => f.data)).toEqual(["x", "x", " x"]);
  });

  it("treats a line without colon as a field with an empty value", () => {
    const frames = parse("data\n\n");
    expect(frames).toHaveLength(1);
    expect(frames[0]?.data).toBe("");
  });

  it("ignores comments and unknown fields", () => {
    const frames = parse(": keepalive\nfoo: bar\ndata: 1\n:another\n\n");
    expect(frames.map((f) => f.data)).toEqual(["1"]);
  });

  it("dispatches nothing for a block without data, and resets its event type", () => {
    const frames = parse("event: lonely\n\ndata: 2\n\n");
    expect(frames).toEqual([expect.objectContaining({ event: "message", data: "2" })]);
  });

  it("keeps the last event id sticky and ignores ids containing NUL", () => {
    const frames = parse("id: a\ndata: 1\n\ndata: 2\n\nid: b\u0000c\ndata: 3\n\nid\ndata: 4\n\n");
    expect(frames.map((f) => f.id)).toEqual(["a", "a", "a", ""]);
  });

  it("takes retry only when it is all digits", () => {
    const parser = new SseParser();
    parser.push(bytes("retry: 1500\n\nretry: 12x\n\n"));
    expect(parser.retryMs).toBe(1500);
  });
});

describe("SseParser: line endings", () => {
  const body = "event: e\ndata: a\ndata: b\n\n: c\ndata: z\n\n";
  const expected = [
    { event: "e", data: "a\nb" },
    { event: "message", data: "z" },
  ];

  it.each([
    ["LF", "\n"],
    ["CRLF", "\r\n"],
    ["CR", "\r"],
  ])("accepts %s and keeps it in raw", (_name, ending) => {
    const text = body.replaceAll("\n", ending);
    for (const size of [0, 1, 2, 3, 7]) {
      const frames = parse(text, size);
      expect(frames.map(({ event, data }) => ({ event, data }))).toEqual(expected);
      expect(frames.map((f) => f.raw).join("")).toBe(text);
    }
  });

  it("reads a CR at the end of one chunk and an LF at the start of the next as one ending", () => {
    const parser = new SseParser();
    expect(parser.push(bytes("data: a\r"))).toEqual([]);
    const frames = parser.push(bytes("\n\r\n"));
    expect(frames).toEqual([{ event: "message", data: "a", raw: "data: a\r\n\r\n" }]);
    expect(parser.end()).toEqual([]);
  });

  it("settles a trailing CR at end()", () => {
    const parser = new SseParser();
    expect(parser.push(bytes("data: a\r\r"))).toEqual([]);
    expect(parser.end()).toEqual([{ event: "message", data: "a", raw: "data: a\r\r" }]);
  });

  it("mixes endings within one stream", () => {
    expect(parse("data: a\r\ndata: b\rdata: c\n\r\n").map((f) => f.data)).toEqual(["a\nb\nc"]);
  });
});

describe("SseParser: bytes and characters", () => {
  it("strips one leading BOM, even split across chunks, and only at the start", () => {
    const text = "\uFEFFdata: 1\n\n\uFEFFdata: 2\n\ndata: 3\n\n";
    for (const size of [0, 1, 2]) {
      const frames = parse(text, size);
      // The second BOM makes "\uFEFFdata" an unknown field, as the standard says.
      expect(frames.map((f) => f.data)).toEqual(["1", "3"]);
      expect(frames[0]?.raw).toBe("data: 1\n\n");
    }
  });

  it("decodes characters split at every byte boundary", () => {
    const text = "data: h\u00e9llo \u{1F30D} \u4e16\u754c\n\n";
    for (const size of [1, 2, 3, 5])
      expect(parse(text, size)[0]?.data).toBe("h\u00e9llo \u{1F30D} \u4e16\u754c");
  });

  it("replaces invalid UTF-8 with U+FFFD instead of failing", () => {
    const frames = parseChunks([
      Uint8Array.from([0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0xff, 0xc3, 0x0a, 0x0a]),
    ]);
    expect(frames[0]?.data).toBe("\uFFFD\uFFFD");
  });

  it("copies retained bytes, so a caller may reuse its buffer", () => {
    const parser = new SseParser();
    const buffer = Buffer.from("data: ab");
    parser.push(buffer);
    buffer.fill(0x7a);
    expect(parser.push(bytes("c\n\n"))[0]?.data).toBe("abc");
  });
});

describe("SseParser: raw text", () => {
  it("carries comments and data-less blocks with the next frame", () => {
    const text = ": hello\n\nevent: x\n\ndata: 1\n\n";
    const frames = parse(text);
    expect(frames).toHaveLength(1);
    expect(frames[0]?.raw).toBe(text);
  });

  it("flushes an unterminated last frame at end(), as recorded streams end", () => {
    const parser = new SseParser();
    expect(parser.push(bytes("data: 1\n\nevent: message_stop\ndata: {}"))).toHaveLength(1);
    expect(parser.end()).toEqual([
      { event: "message_stop", data: "{}", raw: "event: message_stop\ndata: {}" },
    ]);
  });

  it("drops trailing text that never forms a frame", () => {
    expect(parse("data: 1\n\n: bye\n")).toHaveLength(1);
  });

  it("returns nothing for an empty chunk", () => {
    const parser = new SseParser();
    expect(parser.push(new Uint8Array(0))).toEqual([]);
    parser.push(bytes("data: a\r"));
    expect(parser.push(new Uint8Array(0))).toEqual([]);
    expect(parser.end()).toHaveLength(1);
  });
});

describe("SseParser: limits and misuse (SseError only)", () => {
  it("accepts a line of exactly the limit and refuses one byte more", () => {
    const ok = new SseParser({ maxLineBytes: 16 });
    expect(ok.push(bytes(`data: ${"a".repeat(10)}\n\n`))).toHaveLength(1);
    const tooLong = new SseParser({ maxLineBytes: 16 });
    expect(() => tooLong.push(bytes(`data: ${"a".repeat(11)}\n\n`))).toThrowError(
      expect.objectContaining({ code: "line_too_long", limitBytes: 16 }),
    );
  });

  it("counts a line across chunks", () => {
    const parser = new SseParser({ maxLineBytes: 16 });
    parser.push(bytes("data: 0123456789"));
    expect(() => parser.push(bytes("x"))).toThrow(SseError);
  });

  it("refuses a frame over its limit even when every line is short", () => {
    const parser = new SseParser({ maxLineBytes: 64, maxFrameBytes: 100 });
    const line = `data: ${"b".repeat(40)}\n`;
    expect(() => parser.push(bytes(line.repeat(3)))).toThrowError(
      expect.objectContaining({ code: "frame_too_long", limitBytes: 100 }),
    );
  });

  it("stays failed after an error, and closed after end()", () => {
    const parser = new SseParser({ maxLineBytes: 4 });
    expect(() => parser.push(bytes("data: 12345"))).toThrow(SseError);
    expect(() => parser.push(bytes("\n"))).toThrowError(expect.objectContaining({ code: "closed" }));
    expect(() => parser.end()).toThrowError(expect.objectContaining({ code: "closed" }));
    const ended = new SseParser();
    ended.end();
    expect(() => ended.push(bytes("data: 1\n\n"))).toThrowError(expect.objectContaining({ code: "closed" }));
  });

  it("reports what it buffers, so the edge can account for a slow peer", () => {
    const parser = new SseParser();
    parser.push(bytes("data: abc"));
    expect(parser.bufferedBytes).toBe(9);
    parser.push(bytes("\n"));
    expect(parser.bufferedBytes).toBe(10);
    parser.push(bytes("\n"));
    expect(parser.bufferedBytes).toBe(0);
  });
});
