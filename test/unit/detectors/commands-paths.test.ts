import { describe, expect, it } from "vitest";
import {
  mayPersistencePath,
  maySecretPath,
  pathTokens,
  persistenceKind,
  secretKind,
} from "../../../src/detectors/commands/paths.js";
import { fragmentFuzz } from "../../helpers/fragment-fuzz.js";

/**
 * `maySecretPath` and `mayPersistencePath` let rules pass over words without judging their parts:
 * they must hold of every text that has a part `secretKind` or `persistenceKind` knows, however
 * the path is written (case, `$HOME`, doubled slashes, dot segments, a scheme).
 */

/** Pieces of paths: stores, locations, the ways a path is dressed, and ordinary names. */
const FRAGMENTS = [
  "/",
  "//",
  "/./",
  "/../",
  "~/",
  "$HOME/",
  "${HOME}/",
  "/root/",
  "/home/bob/",
  "file://",
  " ",
  "=",
  "@",
  "_",
  "etc/",
  "ETC/",
  "shadow",
  "SHADOW",
  "gshadow-",
  "master.passwd",
  "security/opasswd",
  "sudoers",
  ".ssh/",
  ".SSH",
  "id_rsa",
  "ID_ED25519_sk",
  "ssh_host_ecdsa_key",
  ".aws/credentials",
  ".config/gcloud/",
  "legacy_credentials/",
  "adc.json",
  "kubernetes.io/serviceaccount/token",
  ".kube/config",
  ".docker/config.json",
  ".netrc",
  ".Git-Credentials",
  "Login Data",
  "Cookies",
  "key4.db",
  ".bash_history",
  "proc/",
  "self/",
  "1234/",
  "*/",
  "environ",
  ".gnupg/private-keys-v1.d/",
  "cron",
  "cron.d/",
  "var/spool/",
  "anacrontab",
  "systemd/",
  "lib/",
  "usr/",
  "system/",
  "init.d/",
  "rc.local",
  "Library/LaunchAgents",
  "library/launchdaemons/",
  "profile",
  "bash.bashrc",
  "zsh/",
  "update-motd.d/",
  ".bashrc",
  ".bash_profile",
  ".zshenv",
  "authorized_keys",
  "ssh/sshd_config",
  "ld.so.preload",
  ".config/autostart",
  "xdg/autostart",
  ".lessfilter",
  "api/v1/users",
  "src/index.ts",
  "x",
];

describe("commands paths: marks of secret and persistence paths", () => {
  it("holds of every text with a part secretKind or persistenceKind knows", () => {
    let secrets = 0;
    let locations = 0;
    for (const text of fragmentFuzz(FRAGMENTS, 20_000, 4242)) {
      // The parts rules judge: the text, its path tokens, and what follows `@` or `=`.
      const parts = [
        text,
        ...pathTokens(text),
        text.slice(text.indexOf("@") + 1),
        text.slice(text.indexOf("=") + 1),
      ];
      if (parts.some((p) => secretKind(p) !== undefined)) {
        secrets++;
        expect(maySecretPath(text), text).toBe(true);
      }
      if (parts.some((p) => persistenceKind(p) !== undefined)) {
        locations++;
        expect(mayPersistencePath(text), text).toBe(true);
      }
    }
    // The fuzz reaches both kinds often, so the implications above are not vacuous.
    expect(secrets).toBeGreaterThan(100);
    expect(locations).toBeGreaterThan(100);
  });

  it.each([
    "/etc/shadow",
    "~/.ssh/id_rsa",
    "ID_RSA",
    "/home/bob/.AWS/Credentials",
    "/proc/self/environ",
    "~/.gnupg/private-keys-v1.d/x.key",
    "x/Login Data",
  ])("marks the secret %s", (path) => {
    expect(secretKind(path)).toBeDefined();
    expect(maySecretPath(path)).toBe(true);
  });

  it.each(["/etc/cron.d/x", "$HOME/.BASHRC", "/Library/LaunchAgents/x.plist", "/etc/systemd/system/x"])(
    "marks the persistence location %s",
    (path) => {
      expect(persistenceKind(path)).toBeDefined();
      expect(mayPersistencePath(path)).toBe(true);
    },
  );

  it.each(["/api/v1/users", "src/index.ts", "https://example.com/a?b=1", "</div>", "2024/01/02"])(
    "marks neither in %s",
    (text) => {
      expect(maySecretPath(text)).toBe(false);
      expect(mayPersistencePath(text)).toBe(false);
    },
  );
});
