import type { CliIo } from "./io.js";
import { type Column, renderTable } from "./table.js";

/** Rows as an aligned table, or with `--json` as one JSON document (an array of the rows' data). */
export function printRows<Row>(io: CliIo, json: boolean, columns: readonly Column<Row>[], rows: readonly Row[], data: unknown = rows): void {
  if (json) io.out(`${JSON.stringify(data, null, 2)}\n`);
  else io.out(renderTable(columns, rows));
}

export function printJson(io: CliIo, data: unknown): void {
  io.out(`${JSON.stringify(data, null, 2)}\n`);
}
