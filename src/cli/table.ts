/** One column of a plain-text table. */
export interface Column<Row> {
  readonly header: string;
  readonly value: (row: Row) => string | number | undefined;
  /** Numbers read better right-aligned. */
  readonly align?: "left" | "right";
  /** A minimum width, so rows printed in batches (`--follow`) line up with the first. */
  readonly width?: number;
}

/** A cell as text: absent values are `-` so columns never collapse and `awk` field counts stay fixed. */
function cell(value: string | number | undefined): string {
  if (value === undefined || value === "") return "-";
  // A newline or tab inside a cell would break the row apart.
  return String(value).replace(/[\t\r\n]+/g, " ");
}

/**
 * Aligned plain text: a header row, then one line per row, columns separated by two spaces and
 * padded to the widest cell (counted in code points, so non-ASCII names do not skew alignment).
 * `header: false` prints the rows only (later batches of a followed tail).
 */
export function renderTable<Row>(columns: readonly Column<Row>[], rows: readonly Row[], header = true): string {
  const cells = rows.map((row) => columns.map((c) => cell(c.value(row))));
  const widths = columns.map((c, i) =>
    Math.max(c.width ?? 0, header ? [...c.header].length : 0, ...cells.map((r) => [...(r[i] ?? "")].length)),
  );
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => {
        const pad = " ".repeat(Math.max(0, (widths[i] ?? 0) - [...v].length));
        return columns[i]?.align === "right" ? pad + v : v + pad;
      })
      .join("  ")
      .trimEnd();
  const lines = cells.map(line);
  if (header) lines.unshift(line(columns.map((c) => c.header)));
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
