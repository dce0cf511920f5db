import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import type { SecretRule } from "../rule.js";

/** Source hosting tokens: GitHub, GitLab, Bitbucket and package registries. */
export const vcsRules: readonly SecretRule[] = [
  {
    id: "github_token",
    kind: "GITHUB_TOKEN",
    keywords: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
    // Classic tokens (36 base62 characters) and app installation tokens wrapping a JWT.
    pattern:
      /\b(gh[pousr]_(?:[A-Za-z0-9]{36}(?![A-Za-z0-9])|\d{1,12}_eyJ[A-Za-z0-9_-]{10,2000}\.[A-Za-z0-9_.-]{10,4000}))/dg,
    severity: Severity.CRITICAL,
    score: 0.95,
    minEntropy: 3,
    priority: 2,
    reason: "GitHub token",
  },
  {
    id: "github_token",
    kind: "GITHUB_TOKEN",
    keywords: ["github_pat_"],
    pattern: /\b(github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})(?![A-Za-z0-9])/dg,
    severity: Severity.CRITICAL,
    score: 0.95,
    minEntropy: 3,
    priority: 2,
    reason: "GitHub fine-grained personal access token",
  },
  {
    id: "gitlab_token",
    kind: "GITLAB_TOKEN",
    keywords: [
      "glpat-",
      "glptt-",
      "glrt-",
      "gldt-",
      "glft-",
      "glcbt-",
      "glimt-",
      "glagent-",
      "glsoat-",
      "gloas-",
    ],
    // Personal, pipeline trigger, runner, deploy, feed, CI job, incoming mail, agent and
    // OAuth secrets; routable tokens append ".<version>.<checksum>" parts.
    pattern:
      /\b(gl(?:pat|ptt|rt|dt|ft|cbt|imt|agent|soat|oas)-[A-Za-z0-9_-]{20,80}(?:\.[A-Za-z0-9_-]{2,16}){0,2})(?![A-Za-z0-9_.-])/dg,
    severity: Severity.CRITICAL,
    score: 0.95,
    minEntropy: 3,
    priority: 2,
    reason: "GitLab token",
  },
  {
    id: "gitlab_token",
    kind: "GITLAB_TOKEN",
    keywords: ["gr1348941"],
    // Runner registration tokens.
    pattern: /\b(GR1348941[A-Za-z0-9_-]{20})(?![A-Za-z0-9_-])/dg,
    severity: Severity.HIGH,
    score: 0.9,
    minEntropy: 3.5,
    priority: 2,
    reason: "GitLab runner registration token",
  },
  {
    id: "bitbucket_token",
    kind: "BITBUCKET_TOKEN",
    keywords: ["atbb", "atctt3", "atatt3"],
    // Atlassian API tokens and Bitbucket app passwords.
    pattern: /\b((?:ATBB|ATCTT3|ATATT3)[A-Za-z0-9_=-]{24,400})(?![A-Za-z0-9_=-])/dg,
    severity: Severity.CRITICAL,
    score: 0.9,
    minEntropy: 3.5,
    priority: 2,
    reason: "Atlassian or Bitbucket API token",
  },
  {
    id: "npm_token",
    kind: "NPM_TOKEN",
    keywords: ["npm_"],
    pattern: /\b(npm_[A-Za-z0-9]{36})(?![A-Za-z0-9])/dg,
    severity: Severity.CRITICAL,
    score: 0.95,
    minEntropy: 3,
    priority: 2,
    reason: "npm access token",
  },
  {
    id: "npm_token",
    kind: "NPM_TOKEN",
    keywords: ["_authtoken"],
    // .npmrc registry credentials: `//registry/:_authToken=...`.
    pattern: /:_authToken=["']?([^\s"']{16,512})/dg,
    severity: Severity.CRITICAL,
    score: 0.9,
    minEntropy: 2.5,
    priority: 2,
    reason: "npm registry auth token in .npmrc",
  },
  {
    id: "pypi_token",
    kind: "PYPI_TOKEN",
    keywords: ["pypi-ageicha"],
    // Macaroons whose base64 starts with the "pypi.org" location.
    pattern: /\b(pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000})(?![A-Za-z0-9_-])/dg,
    severity: Severity.CRITICAL,
    score: 0.95,
    priority: 2,
    reason: "PyPI upload token",
  },
  {
    id: "docker_token",
    kind: "DOCKER_TOKEN",
    keywords: ["dckr_pat_", "dckr_oat_"],
    pattern: /\b(dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,64})(?![A-Za-z0-9_-])/dg,
    severity: Severity.CRITICAL,
    score: 0.9,
    priority: 2,
    reason: "Docker Hub access token",
  },
];
