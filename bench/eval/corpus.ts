import type { Channel } from "../../gen/guard/v1/types_pb.js";

/**
 * One labelled text from a public corpus that nobody on the project wrote. `expected`
 * lists the category ids or prefixes a detector should report (`security.secret_leak`,
 * `privacy.pii.email`); empty means the sample is benign and any finding is a false alarm.
 */
export interface LabelledSample {
  readonly id: string;
  readonly text: string;
  readonly channel: Channel;
  readonly toolName?: string;
  readonly argumentKey?: string;
  readonly expected: readonly string[];
}

/** A corpus loader; one file per corpus in bench/eval/corpora/, found by the harness. */
export interface Corpus {
  readonly name: string;
  /** Where the data comes from (the folder's SOURCE.txt, in one line). */
  readonly source: string;
  /** Reads the samples from the corpora root (../shared/corpora by default). */
  load(corporaRoot: string): Promise<LabelledSample[]>;
}

/** A corpus with its samples read, and the label notes its loader exports (`notes`). */
export interface LoadedCorpus {
  readonly corpus: Corpus;
  readonly samples: readonly LabelledSample[];
  readonly notes: readonly string[];
}
