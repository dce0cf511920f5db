import type { Detector } from "../detector.js";
import { findEmails } from "./email.js";

/** Personal data (`privacy.pii.*`), each kind validated and not only matched. */
export const piiDetector: Detector = {
  name: "pii",
  version: "1",
  categories: ["privacy.pii.email"],
  detect(segment) {
    return findEmails(segment.text);
  },
};
