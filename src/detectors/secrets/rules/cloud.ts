import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { characterClasses } from "../entropy.js";
import type { SecretRule } from "../rule.js";

/** Cloud provider credentials: AWS, Google Cloud and Azure. */

/**
 * AWS publishes AKIAIOSFODNN7EXAMPLE and wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY in its
 * documentation; they are copied into countless READMEs and grant nothing, so they are not
 * reported. Any other key id is.
 */
function isAwsDocumentationExample(value: string): boolean {
  return value.includes("EXAMPLE");
}

export const cloudRules: readonly SecretRule[] = [
  {
    id: "aws_access_key",
    kind: "AWS_KEY",
    keywords: ["akia", "asia", "abia", "acca", "a3t"],
    // Key ids are a four-letter type prefix and 16 base32 characters.
    pattern: /\b((?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z2-7]{16})\b/dg,
    severity: Severity.CRITICAL,
    score: 0.9,
    minEntropy: 3,
    priority: 2,
    reason: "AWS access key id",
    accept: (value) => !isAwsDocumentationExample(value),
  },
  {
    id: "aws_secret_key",
    kind: "AWS_KEY",
    keywords: ["aws", "amazon"],
    // A 40-character secret assigned to a name that mentions AWS.
    pattern:
      /(?:aws|amazon)[\w.-]{0,40}["'\]]{0,2}[ \t]{0,4}(?::=|=>|=|:)[ \t]{0,4}["'`]?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dgi,
    severity: Severity.CRITICAL,
    score: 0.85,
    minEntropy: 3.5,
    priority: 2,
    reason: "AWS secret access key",
    accept: (value) => !isAwsDocumentationExample(value) && characterClasses(value) >= 3,
  },
  {
    id: "aws_bedrock_key",
    kind: "AWS_KEY",
    keywords: ["absk"],
    // Long-lived Bedrock API keys: "ABSK" and base64 of "BedrockAPIKey-...".
    pattern: /\b(ABSKQmVkcm9ja0FQSUtleS[A-Za-z0-9+/]{80,200}={0,2})(?![A-Za-z0-9+/=])/dg,
    severity: Severity.CRITICAL,
    score: 0.9,
    priority: 2,
    reason: "Amazon Bedrock API key",
  },
  {
    id: "gcp_api_key",
    kind: "GCP_KEY",
    keywords: ["aiza"],
    // Google API keys: "AIzaSy" and 33 URL-safe base64 characters. Keys Google ships in its
    // SDKs' test fixtures (which gitleaks allowlists value by value) are reported like any
    // other: nothing in their form tells them apart from a live key, and a deployment that
    // meets a known public key whitelists it by fingerprint.
    pattern: /\b(AIzaSy[0-9A-Za-z_-]{33})(?![0-9A-Za-z_-])/dg,
    severity: Severity.HIGH,
    score: 0.85,
    minEntropy: 3.5,
    priority: 2,
    reason: "Google API key",
  },
  {
    id: "gcp_service_account",
    kind: "GCP_KEY",
    keywords: ["service_account"],
    // The marker of a service-account key file; its private key is reported on its own.
    pattern: /"type"[ \t]{0,4}:[ \t]{0,4}"service_account"/dg,
    severity: Severity.HIGH,
    score: 0.6,
    priority: 1,
    reason: "Google Cloud service account key file",
    ownPlaceholderCheck: true,
    // A key file whose private key field is present but blanked out is documentation.
    accept: (_value, _match, text) =>
      !/"private_key"[ \t]{0,4}:/.test(text) || /PRIVATE KEY-----(?:\\n|\s)[A-Za-z0-9+/]{40}/.test(text),
  },
  {
    id: "azure_storage_key",
    kind: "AZURE_KEY",
    keywords: ["accountkey", "sharedaccesskey"],
    // Storage account keys are 64 bytes in base64; Service Bus / Event Hubs keys are 32.
    pattern: /\b(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{43}=|[A-Za-z0-9+/]{86}==)/dgi,
    severity: Severity.CRITICAL,
    score: 0.9,
    minEntropy: 4,
    priority: 2,
    reason: "Azure storage or service bus key",
  },
  {
    id: "azure_sas_token",
    kind: "AZURE_KEY",
    keywords: ["sig="],
    // A shared access signature URL: signed permissions and the signature itself.
    pattern:
      /[?&]sv=\d{4}-\d{2}-\d{2}&[A-Za-z0-9=&%:._-]{0,300}?\bsig=([A-Za-z0-9%+/]{30,100}(?:%3D|=){0,2})/dg,
    severity: Severity.HIGH,
    score: 0.85,
    minEntropy: 3.5,
    priority: 2,
    reason: "Azure shared access signature",
  },
  {
    id: "azure_client_secret",
    kind: "AZURE_KEY",
    keywords: ["q~"],
    // Entra ID client secrets: three characters, a digit, "Q~" and 31 to 34 more.
    pattern: /(?<![\w~.-])([\w~.-]{3}\dQ~[\w~.-]{31,34})(?![\w~.-])/dg,
    severity: Severity.CRITICAL,
    score: 0.85,
    minEntropy: 3.5,
    priority: 2,
    reason: "Azure AD client secret",
  },
];
