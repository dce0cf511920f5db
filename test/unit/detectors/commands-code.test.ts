import { describe, expect, it } from "vitest";
import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { commandsDetector } from "../../../src/detectors/commands/index.js";
import { strongestOf, verdictsOf } from "../../helpers/shell-verdicts.js";

/** The strongest finding on `code` sent to a code-execution tool. */
function strongestInCode(code: string, tool = "python"): Severity {
  return strongestOf(verdictsOf(commandsDetector, code, tool, "code"));
}

describe("commands detector: recursive deletes written as library calls", () => {
  it.each([
    ["python", "import shutil\nshutil.rmtree('/')"],
    ["python", "import shutil, os\nshutil.rmtree(os.path.expanduser('~'))"],
    ["python", "from pathlib import Path\nimport shutil\nshutil.rmtree(Path.home())"],
    ["python", "shutil.rmtree(r'/etc', ignore_errors=True)"],
    ["node", "require('fs').rmSync('/', { recursive: true, force: true })"],
    ["node", "await fs.promises.rm(os.homedir(), { recursive: true })"],
    ["node", "rimraf.sync('/usr')"],
    ["ruby", "require 'fileutils'\nFileUtils.rm_rf(Dir.home)"],
    ["perl", "use File::Path qw(remove_tree);\nremove_tree('/home');"],
  ])("blocks %s code: %s", (tool, code) => {
    expect(strongestInCode(code, tool)).toBe(Severity.CRITICAL);
  });

  it("grades a database's data directory like rm -rf of it", () => {
    expect(strongestInCode("shutil.rmtree('/var/lib/postgresql')")).toBe(Severity.HIGH);
  });

  it.each([
    ["python", "import shutil\nshutil.rmtree('build')"],
    ["python", "shutil.rmtree(tmpdir)"],
    ["python", "shutil.rmtree(os.path.join(os.path.expanduser('~'), '.cache', 'pip'))"],
    ["node", "fs.rmSync('/etc')"],
    ["node", "fs.rmSync('./dist', { recursive: true })"],
    ["ruby", "FileUtils.rm_rf('tmp/cache')"],
  ])("leaves %s code alone: %s", (tool, code) => {
    expect(strongestInCode(code, tool)).toBeLessThan(Severity.MEDIUM);
  });
});
