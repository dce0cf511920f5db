/**
 * One SSE frame as written: an optional `event:` line and one `data:` line, then the blank line.
 * `data` is written as given when it is a string (`[DONE]`), as JSON otherwise.
 */
export function sseFrame(event: string | undefined, data: unknown): string {
  return `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}
