import { describe, expect, it } from "vitest";
import { renderTable } from "../../../src/cli/table.js";

interface Row {
  name: string;
  count?: number;
}

const columns = [
  { header: "NAME", value: (r: Row) => r.name },
  { header: "COUNT", value: (r: Row) => r.count, align: "right" as const },
];

describe("renderTable", () => {
  it("aligns columns to the widest cell, numbers to the right", () => {
    expect(renderTable(columns, [{ name: "alpha", count: 3 }, { name: "b", count: 1200 }])).toBe(
      "NAME   COUNT\nalpha      3\nb       1200\n",
    );
  });

  it("prints absent cells as - and keeps rows on one line", () => {
    expect(renderTable(columns, [{ name: "two\nlines" }])).toBe("NAME       COUNT\ntwo lines      -\n");
  });

  it("counts code points, not UTF-16 units, when padding", () => {
    const out = renderTable(columns, [{ name: "😀😀", count: 1 }, { name: "abcd", count: 2 }]);
    expect(out.split("\n")[1]).toBe("😀😀        1");
    expect(out.split("\n")[2]).toBe("abcd      2");
  });

  it("prints only the header for no rows, and rows only without header", () => {
    expect(renderTable(columns, [])).toBe("NAME  COUNT\n");
    expect(renderTable(columns, [{ name: "x", count: 1 }], false)).toBe("x  1\n");
  });

  it("honours minimum widths so batches line up", () => {
    const wide = [{ header: "N", value: (r: Row) => r.name, width: 5 }, columns[1] as (typeof columns)[1]];
    expect(renderTable(wide, [{ name: "a", count: 1 }], false)).toBe("a      1\n");
  });
});
