/**
 * Server-sent events as both providers frame them. The guarded fetch holds a streamed reply
 * whole, so it needs to read frames back out of the raw bytes and to write the fixed reply
 * as frames again; the mock model servers use the writer too.
 */
export interface SseFrame {
  readonly event?: string;
  readonly data: string;
}

/** Splits an SSE body into frames (blank-line separated; comment lines are skipped). */
export function parseSse(text: string): SseFrame[] {
  const frames: SseFrame[] = [];
  for (const block of text.replace(/\r\n?/g, "\n").split("\n\n")) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length > 0)
      frames.push(event === undefined ? { data: data.join("\n") } : { event, data: data.join("\n") });
  }
  return frames;
}

export function formatSse(frames: readonly SseFrame[]): string {
  return frames
    .map((f) => `${f.event === undefined ? "" : `event: ${f.event}\n`}data: ${f.data}\n\n`)
    .join("");
}

/** Cuts text into pieces of at most `size` code points, so no surrogate pair is split. */
export function pieces(text: string, size: number): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(""));
  return out;
}
