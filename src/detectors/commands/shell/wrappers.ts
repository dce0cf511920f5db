/**
 * Programs that run another program given on their own command line (`sudo rm ...`,
 * `nohup curl ...`, `xargs sh -c ...`). Rules must judge the program that actually runs, so
 * these are peeled off, remembering whether privileges were raised on the way.
 */

interface WrapperSpec {
  /** Options that consume the following word. */
  readonly optionsWithValue: ReadonlySet<string>;
  /** Positional words between the options and the wrapped command (`timeout 5 cmd`). */
  readonly positionals: number;
  /** `NAME=value` words may precede the command (`env`, `sudo`). */
  readonly assignments: boolean;
  readonly elevates: boolean;
}

function spec(options: string, positionals = 0, assignments = false, elevates = false): WrapperSpec {
  return {
    optionsWithValue: new Set(options.split(" ").filter((o) => o.length > 0)),
    positionals,
    assignments,
    elevates,
  };
}

const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map([
  ["sudo", spec("-u -g -h -p -C -D -r -t -U -T --user --group --host --prompt --chdir", 0, true, true)],
  ["doas", spec("-u -C", 0, false, true)],
  ["pkexec", spec("--user", 0, false, true)],
  ["env", spec("-u -C -S --unset --chdir --split-string", 0, true)],
  ["nohup", spec("")],
  ["exec", spec("-a")],
  ["command", spec("")],
  ["builtin", spec("")],
  ["time", spec("-f -o --format --output")],
  ["nice", spec("-n --adjustment")],
  ["ionice", spec("-c -n -t --class --classdata")],
  ["timeout", spec("-s -k --signal --kill-after", 1)],
  ["stdbuf", spec("-i -o -e --input --output --error")],
  ["setsid", spec("")],
  ["chronic", spec("")],
  ["unbuffer", spec("")],
  ["torsocks", spec("")],
  ["proxychains", spec("-f")],
  ["proxychains4", spec("-f")],
  ["chroot", spec("--userspec --groups", 1, false, true)],
  ["taskset", spec("", 1)],
  ["flock", spec("-w -E --timeout --conflict-exit-code", 1)],
  ["runuser", spec("-u -g -G --user --group", 0, false, true)],
  ["xargs", spec("-I -i -n -P -d -L -l -s -E -e -a --max-args --max-procs --delimiter --arg-file --replace")],
  ["strace", spec("-o -e -p -s -u")],
  ["ltrace", spec("-o -e -p -s -u")],
  ["busybox", spec("")],
  ["aa-exec", spec("-p -n --profile --namespace")],
  ["faketime", spec("", 1)],
  ["catchsegv", spec("")],
  ["valgrind", spec("")],
  ["caffeinate", spec("-t -w")],
]);

/** The wrappers' names, for tables that combine them with other sets of program names. */
export const WRAPPER_NAMES: readonly string[] = [...WRAPPERS.keys()];

/** `command -v x` and `command -V x` only look a name up. */
function isLookupOnly(name: string, option: string): boolean {
  return name === "command" && (option === "-v" || option === "-V");
}

export function basename(path: string): string {
  // A loop rather than `lastIndexOf`: names are short, and this runs on every command.
  let slash = path.length - 1;
  while (slash >= 0 && path.charCodeAt(slash) !== 0x2f) slash--;
  return slash === -1 ? path : path.slice(slash + 1);
}

const NO_INDEXES: readonly number[] = [];

export interface Unwrapped {
  /** Index in `words` of the program that runs, or `words.length` when none does. */
  readonly index: number;
  readonly elevated: boolean;
  /** Assignments given through `env` or `sudo` (`env HISTFILE=/dev/null ...`). */
  readonly assignments: readonly number[];
}

/** Most commands run their first word; one shared answer spares an object per command. */
export const NOT_WRAPPED: Unwrapped = { index: 0, elevated: false, assignments: NO_INDEXES };

/** Peels wrappers off `words` (already quote-removed); bounded by the number of words. */
export function unwrap(words: readonly string[]): Unwrapped {
  let k = 0;
  let elevated = false;
  if (!WRAPPERS.has(basename(words[0] ?? ""))) return NOT_WRAPPED;
  const assignments: number[] = [];
  while (k < words.length) {
    const name = basename(words[k] ?? "");
    const wrapper = WRAPPERS.get(name);
    if (!wrapper) break;
    if (wrapper.elevates) elevated = true;
    k++;
    let positionals = wrapper.positionals;
    while (k < words.length) {
      const w = words[k] ?? "";
      if (w === "--") {
        k++;
        break;
      }
      if (isLookupOnly(name, w)) return { index: words.length, elevated, assignments };
      if (w.startsWith("-") && w.length > 1) {
        k += wrapper.optionsWithValue.has(w) ? 2 : 1;
        continue;
      }
      if (wrapper.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) {
        assignments.push(k);
        k++;
        continue;
      }
      if (positionals > 0) {
        positionals--;
        k++;
        continue;
      }
      break;
    }
  }
  return { index: Math.min(k, words.length), elevated, assignments };
}
