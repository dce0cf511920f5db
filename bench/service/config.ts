import { hashKey } from "../../src/auth/keys.js";
import { parseConfig } from "../../src/config/load.js";
import type { GuardConfig } from "../../src/config/types.js";

/** The benchmark's one API key (plain text; the configuration holds its hash, as in production). */
export const BENCH_KEY = "gk_bench_0123456789abcdef0123456789";

/**
 * One organization with the shipped defaults except the rate limits, which would otherwise
 * refuse a benchmark after 600 events a minute, and a body cap above the largest bucket (the
 * 1 MB bucket reaches 1.5 MB). The detector deadline stays at its default: in-process
 * detectors run synchronously, so it never fires here.
 */
export const BENCH_CONFIG_YAML = `
orgs:
  - id: bench
    subscription: active
    limits: {max_request_bytes: 4194304, rate_per_minute: 100000000, org_rate_per_minute: 0}
    keys:
      - {id: bench, sha256: ${hashKey(BENCH_KEY)}}
`;

export function benchConfig(): GuardConfig {
  return parseConfig(BENCH_CONFIG_YAML);
}
