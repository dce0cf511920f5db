/**
 * Pieces of the Prometheus text exposition format, version 0.0.4: label values escape backslash,
 * double quote and newline; HELP text escapes backslash and newline; numbers print as Go prints
 * them (`+Inf`, `-Inf`, `NaN` spelled out).
 */
export const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export type Labels = Readonly<Record<string, string>>;

export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

export function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

export function formatValue(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  if (Number.isNaN(value)) return "NaN";
  return String(value);
}

/** `{a="1",b="2"}` in the order of `names`, or nothing when there are no labels. */
export function formatLabels(names: readonly string[], values: readonly string[]): string {
  if (names.length === 0) return "";
  return `{${names.map((n, i) => `${n}="${escapeLabelValue(values[i] ?? "")}"`).join(",")}}`;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Names are fixed in code; a bad one is a programming error caught at start, not at scrape. */
export function checkNames(name: string, labelNames: readonly string[]): void {
  if (!METRIC_NAME.test(name)) throw new Error(`invalid metric name ${name}`);
  for (const label of labelNames) {
    if (!LABEL_NAME.test(label) || label.startsWith("__") || label === "le")
      throw new Error(`invalid label name ${label} on ${name}`);
  }
}
