import { readFileSync } from "node:fs";

/**
 * The texts of a fixture file the project wrote (test/fixtures/prompts/, test/fixtures/documents/):
 * one text a line, a literal `\n` for a line break inside a text, `#` comment lines and blank
 * lines skipped. The trainer, the evaluation and the tests all read them through here.
 */
export function readFixtureTexts(path: string): string[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => line.replaceAll("\\n", "\n"));
}
