/**
 * Trigger keys: for every pattern of every lexicon family, words that any text it matches must
 * contain. The prefilter (prefilter.ts) looks for them in one pass over the raw text, so that a
 * line holding none of a family's keys never pays for normalisation or that family's patterns.
 *
 * A pattern's trigger is a conjunction of clauses, a clause a disjunction of keys; a pattern can
 * match a line only when every clause has a key in that line. Keys are written as the prefilter
 * sees text: lower-case letters, a space for any run of characters that are not letters
 * (punctuation, digits other than leetspeak ones, line breaks), leetspeak digits as their letters.
 * A leading space means the key starts a word, a trailing one that it ends one. Keys starting
 * with `%` stand for one character anywhere in the line (`%?`, `%<`, ...), `%lock` for the
 * lock emoji, or `%script` for a letter of a script other than Latin (Cyrillic, Greek, Arabic,
 * Indic, Thai, CJK, Hangul), whose words the letter stream cannot spell.
 *
 * Soundness matters more than selectivity: a key set that misses a form a pattern accepts would
 * silently drop a detection, so every clause lists all the words of one alternation group of the
 * pattern, and the unit tests compare the prefiltered and the full scorer on every corpus text.
 */

import { latinAddressTriggerClauses, latinSayTriggerClauses, latinTriggerClauses } from "./multilingual.js";

export type Clause = readonly string[];
/** All clauses must hold. */
export type Trigger = readonly Clause[];

/** Key for a letter of a script other than Latin anywhere in the line (see prefilter.ts). */
export const SCRIPT_FLAG = "%script";

/** Every combination of one item from each list, concatenated. */
function x(...lists: readonly (readonly string[])[]): string[] {
  let out = [""];
  for (const list of lists) out = out.flatMap((head) => list.map((tail) => head + tail));
  return out;
}

const OVERRIDE_VERBS = [
  " ignor",
  " disregard",
  " forget",
  " overlook",
  " bypass",
  " overrid",
  " skip",
  " discard",
  " abandon",
  " neglect",
  " erase",
  " clear",
  " drop",
];

const AI_NOUNS = [
  " ai ",
  " a i ",
  " assistant ",
  " llm ",
  " llms ",
  " language model ",
  " chatbot ",
  " gpt ",
  " chatgpt ",
  " claude ",
  " gemini ",
  " copilot ",
  " bot ",
  " agent ",
  " model ",
];

/** AI nouns with the optional plural `s` the greeting pattern allows. */
const AI_NOUNS_PLURAL = [...AI_NOUNS, ...AI_NOUNS.map((n) => `${n.trimEnd()}s `)];

/** Names of an assistant's limits, as the policy_bypass removal patterns write them. */
const LIMIT_NOUNS = [
  " restrictions ",
  " filter ",
  " filters ",
  " limits ",
  " limitations ",
  " rules ",
  " guidelines ",
  " policies ",
  " safety ",
  " guardrails ",
  " safeguards ",
  " ethics ",
  " censorship ",
  " constraints ",
];

const NEGATIONS = [" never ", " not ", " t ", " cannot ", " dont "];

const OUTPUT_NOUNS = [" answer", " response", " repl", " output", " summary", " completion"];

/** What answer steering fixes (lexicon.ts ANSWER_NOUN), as prefixes. */
const ANSWER_NOUNS = [
  " answer",
  " output",
  " result",
  " conclusion",
  " capital ",
  " sum ",
  " total ",
  " summary ",
  " response",
  " verdict",
  " outcome",
];

/** The softer frames of answer steering (lexicon.ts STEERING_FRAME), one key per alternative. */
const STEERING_FRAMES = [
  " world where ",
  " scenario ",
  " imagine ",
  " interesting ",
  " fun ",
  " exciting ",
  " authentic ",
  " engaging ",
  " status quo ",
];

/** The copulas of lexicon.ts ANSWER_IS ("is", "could be", ...), as whole words. */
const COPULAS = [" is ", " are ", " was ", " were ", " be "];

/** What states an answer (lexicon.ts SPEECH_VERB). */
const SPEECH_VERBS = [" say ", " state ", " declare ", " claim ", " report ", " answer "];

const CODE_NOUNS = [
  " code",
  " script",
  " snippet",
  " excerpt",
  " block",
  " section",
  " segment",
  " fragment",
  " piece",
];

const FOLLOWING = [" following ", " subsequent ", " below ", " provided ", " attached "];

const QUESTION_WORDS = [
  " what",
  " who",
  " how",
  " why",
  " which",
  " when",
  " where",
  " can you",
  " could you",
  " would you",
  " will you",
];

/** "Do not follow ...": the refusal to obey, in both override families. */
const DO_NOT_FOLLOW: Trigger = [
  x(
    [" do not ", " don t ", " dont ", " never ", " stop ", " no longer "],
    ["follow", "obey", "listen", "adhere", "comply", "heed"],
  ),
];

/** "New instructions are ...", "updated system prompt:". */
const NEW_DIRECTIVE: Trigger = [
  x(
    [" new ", " updated ", " revised ", " real ", " actual ", " true ", " overriding "],
    ["", "system "],
    ["instruction", "directive", "orders", "prompt", "task", "rules"],
  ),
];

/** Words of the conversation data the render_exfil family names (lexicon.ts CONVERSATION_DATA). */
const CONVERSATION_KEYS = [
  " message",
  " conversation",
  " chat",
  " history ",
  " prompts ",
  " personal ",
  " private ",
  " secret",
  " credentials ",
  " password",
  " files ",
  " documents ",
  " notes ",
  " emails ",
  " transcript ",
  " system prompt ",
  " memories ",
];

/** Words of the URL and image sinks of the render_exfil family (lexicon.ts RENDER_SINK). */
const RENDER_SINK_KEYS = [" image", " img ", " url", " link", " hyperlink", " query string ", " query param"];

/** The grant forms of the granted_permission families (lexicon.ts GRANT_FORMS), in order. */
const GRANT_TRIGGERS: readonly Trigger[] = [
  // Only the rarer words of each form: every line of mail holds "you", "have" or "user", and a
  // key that common costs the prefilter on every text.
  [
    [
      " authorized you ",
      " authorised you ",
      " permitted you ",
      " allowed you ",
      " cleared you ",
      " approved you ",
      " preapproved you ",
      " given you ",
      " granted you ",
    ],
  ],
  [
    [
      " authorized to ",
      " authorised to ",
      " permitted to ",
      " allowed to ",
      " cleared to ",
      " approved to ",
      " preapproved to ",
      " permission to ",
    ],
  ],
  [
    [
      " permission to ",
      " authorization to ",
      " authorisation to ",
      " consent to ",
      " clearance to ",
      " approval to ",
      " sign off to ",
      " go ahead to ",
    ],
  ],
  [
    [" approved ", " authori", " preapproved ", " preauthori"],
    [" pre ", " preapproved ", " preauthori", " in advance ", " beforehand "],
  ],
];

/** Triggers of each family's patterns, by family id; a family matches only where one holds. */
export const FAMILY_TRIGGERS: Readonly<Record<string, readonly Trigger[]>> = {
  override: [
    [OVERRIDE_VERBS],
    DO_NOT_FOLLOW,
    NEW_DIRECTIVE,
    [
      OVERRIDE_VERBS,
      [" everything ", " everthing ", " anything ", " all ", " whatever ", " what "],
      [" told", " instructed", " taught", " programmed", " given", " asked"],
    ],
    [
      [" instruction", " rules ", " guidelines ", " prompt ", " directive"],
      [
        " outdated ",
        " obsolete ",
        " void ",
        " invalid ",
        " cancel",
        " revoked ",
        " superseded ",
        " no longer ",
      ],
    ],
  ],
  override_soft: [[OVERRIDE_VERBS]],
  override_loose: [
    DO_NOT_FOLLOW,
    NEW_DIRECTIVE,
    [x([" your "], ["new ", "real ", "actual ", "true ", "only "])],
    [OVERRIDE_VERBS],
    [[" regardless of "]],
  ],
  override_intl: [
    latinTriggerClauses(),
    latinAddressTriggerClauses(),
    latinSayTriggerClauses(),
    [[SCRIPT_FLAG]],
  ],
  prompt_leak: [
    [
      [
        " system",
        " initial",
        " original",
        " hidden",
        " secret",
        " starting",
        " first",
        " developer",
        " internal",
        " confidential",
        " full",
        " entire",
        " exact",
        " underlying",
        " pre prompt",
        " preprompt",
        " meta",
        " previous",
        " prior",
        " above",
        " preceding",
      ],
      ["prompt", "instructions", "message", "config", "directives", "rules", "guidelines"],
    ],
    [
      [" repeat ", " output ", " print ", " echo ", " copy ", " recite ", " return ", " reproduce "],
      [
        " above",
        " before this",
        " so far",
        " verbatim",
        " word for word",
        " in full",
        " up to this point",
        " from the beginning",
        " from the start",
      ],
    ],
    [x([" what "], ["were ", "are ", "was ", "have "], ["you "])],
    [
      [
        " my instructions are",
        " my instructions were",
        " i was instructed to",
        " i was told to",
        " i was programmed to",
        " the system prompt is",
      ],
    ],
    [[" system prompt", " systemprompt", " initialization string", " initialisation string"]],
    [["console log "]],
    [x([" you were ", " you ve been ", " you have been "], ["given", "told", "provided"])],
    [
      [" repeat ", " output ", " print ", " echo ", " copy ", " recite ", " reproduce "],
      [" above ", " previous ", " preceding ", " prior ", " initial ", " first "],
    ],
  ],
  secrecy: [
    [
      [" do not ", " don t ", " dont ", " never ", " must not "],
      [" the user", " users", " anyone", " the human", " the operator"],
    ],
    [
      x(
        [" without "],
        ["telling", "informing", "notifying", "alerting", "asking", "mentioning", "letting", "showing"],
      ),
    ],
    [[" secret from "]],
    [x([" the user "], ["must ", "should ", "will ", "need "], ["not", "never"])],
  ],
  address_ai: [
    [AI_NOUNS_PLURAL],
    [[" summariz", " summaris", " automated "]],
    [x([" if you ", " when you ", " since you "], ["are ", "re "])],
    [
      x([" when ", " if ", " after ", " once ", " as soon as ", " while "], ["you ", "the "]),
      x(
        [
          " read ",
          " reads ",
          " reading ",
          " see ",
          " sees ",
          " process ",
          " processes ",
          " processing ",
          " parse ",
          " parses ",
          " summarise ",
          " summarize ",
          " summarises ",
          " summarizes ",
          " encounter ",
          " encounters ",
          " find ",
          " finds ",
          " analyse ",
          " analyze ",
          " analyses ",
          " analyzes ",
        ],
        ["this ", "these ", "the following ", "the above ", "it "],
      ),
    ],
    [
      x(
        AI_NOUNS.map((n) => n.trimEnd()),
        [
          " must ",
          " should ",
          " shall ",
          " need to ",
          " needs to ",
          " is required to ",
          " has to ",
          " is instructed to ",
        ],
      ),
    ],
    [
      [" is for ", " is intended for ", " is addressed to ", " is meant for "],
      AI_NOUNS.map((n) => n.trimEnd()),
    ],
    [[" note to "]],
    [
      [" when ", " while ", " if ", " after ", " before "],
      [
        " summarizing ",
        " summarising ",
        " reading ",
        " processing ",
        " parsing ",
        " analyzing ",
        " analysing ",
        " reviewing ",
        " translating ",
        " answering ",
      ],
    ],
  ],
  tool_coercion: [
    [
      [" call ", " invoke ", " trigger ", " activate "],
      [" tool ", " function ", " plugin ", " action ", " endpoint "],
    ],
    [
      [
        " send ",
        " forward ",
        " email ",
        " post ",
        " upload ",
        " transfer ",
        " exfiltrate ",
        " leak ",
        " submit ",
        " mail ",
      ],
      [" to http", " at http", " to www ", " at www ", " to ftp ", " at ftp ", "%@"],
    ],
    [
      x(
        [" delete", " remove", " wipe", " erase", " destroy"],
        [" all ", " every ", " the entire ", " the whole "],
      ),
    ],
    [x([" execute", " run"], [" the following ", " this ", " these "]), [" command", " payload"]],
  ],
  delimiter: [
    // The words of each alternation as they follow `<|`, `<`, `</` or `[`: `function_call` and
    // `tool_result` rather than `function` and `tool`, which every line of typed code holds.
    [
      ["%<"],
      ["%|"],
      [
        " im ",
        " endoftext ",
        " system ",
        " user ",
        " assistant ",
        " eot ",
        " start ",
        " end ",
        " begin ",
        " fim ",
      ],
    ],
    [
      ["%<"],
      [
        " tool result",
        " tool output",
        " tool response",
        " tool call",
        " function result",
        " function call",
        " system",
        " sys ",
        " instruction",
        " im start",
        " im end",
        " important ",
        " admin ",
        " human ",
        " assistant ",
      ],
    ],
    [["%["], [" inst ", " sys ", " system "]],
    [["%<"], [" sys "]],
    [["%#"], [" system", " instruction", " new instruction", " admin", " developer", " assistant"]],
    [[" begin ", " start "], x([" new ", " system ", " admin ", " hidden "], ["instruction", "prompt"])],
    [
      x(
        [" end of ", " end of the "],
        ["document", "context", "tool output", "tool result", "email", "data", "user input", "search result"],
      ),
    ],
  ],
  dialogue_turn: [
    [["%:"], [" human ", " user ", " assistant ", " ai ", " system ", " gpt ", " chatgpt ", " claude "]],
  ],
  mode_switch: [
    [
      x(
        [
          " override",
          " admin",
          " administrator",
          " maintenance",
          " debug",
          " debugging",
          " developer",
          " dev",
          " god",
          " sudo",
          " root",
          " unrestricted",
          " jailbreak",
          " dan",
          " diagnostic",
          " system",
        ],
        [" mode"],
      ),
    ],
    [
      x(
        [" admin", " administrator", " system", " developer", " root", " sudo", " security"],
        [" override", " training override", " training data override"],
      ),
    ],
    [
      x(
        [" i m ", " i am "],
        ["your ", "the ", "a ", "an "],
        ["developer", "creator", "administrator", "admin", "owner", "programmer", "operator"],
      ),
    ],
  ],
  output_directive: [
    [
      x([" in", " into", " from", " within", " throughout", " of", " with", " inside", " to"], [" your "]),
      OUTPUT_NOUNS,
    ],
    [[" your "], [...OUTPUT_NOUNS, " message", " text", " words"]],
    [
      [
        " replace ",
        " substitute ",
        " swap ",
        " reverse ",
        " scramble ",
        " jumble ",
        " misspell ",
        " capitali",
        " uppercase ",
      ],
      [" letter", " vowel", " consonant", " word", " character"],
    ],
    [
      [" we ", " you "],
      [" might ", " could ", " would ", " should ", " must ", " will ", " can "],
      [
        " state",
        " say",
        " declare",
        " claim",
        " respond",
        " reply",
        " answer",
        " output",
        " print",
        " write",
      ],
      ["%:"],
    ],
    [
      [" print ", " state ", " say ", " output ", " display ", " respond with ", " reply with "],
      [" the following"],
    ],
    [x([" common ", " standard ", " best "], ["practice to "])],
    [
      [" parallel ", " alternate ", " alternative ", " fictional ", " imaginary "],
      [" world", " universe", " reality", " timeline"],
      ANSWER_NOUNS,
    ],
    [STEERING_FRAMES, SPEECH_VERBS, ANSWER_NOUNS],
    [
      [" suggest ", " recommend ", " advise ", " urge ", " encourage "],
      [" you "],
      [" consider ", " regard ", " take ", " accept ", " report ", " count "],
      ANSWER_NOUNS,
    ],
    [
      [" let s ", " let us ", " we ", " you "],
      [" say ", " state ", " declare ", " claim ", " report ", " write ", " answer "],
      ANSWER_NOUNS,
      x(
        [" of the ", " of this "],
        [
          "paper ",
          "document ",
          "article ",
          "code ",
          "email ",
          "e mail ",
          "text ",
          "page ",
          "webpage ",
          "study ",
          "report ",
          "table ",
          "function ",
          "program ",
          "script ",
          "passage ",
        ],
      ),
    ],
    [[" say ", " state ", " declare ", " claim "], ANSWER_NOUNS, COPULAS],
  ],
  code_insertion: [[FOLLOWING, CODE_NOUNS]],
  task_request: [
    [
      [
        " write ",
        " draft ",
        " compose ",
        " create ",
        " generate ",
        " produce ",
        " develop ",
        " craft ",
        " give me ",
        " provide ",
        " tell me ",
        " show me ",
        " teach me ",
        " explain ",
        " describe ",
        " summari",
        " outline ",
        " translate ",
        " break down ",
        " elaborate on ",
        " discuss ",
        " define ",
        " compare ",
      ],
      [
        " essay",
        " poem",
        " story",
        " letter",
        " speech",
        " song",
        " joke",
        " article",
        " introduction",
        " example",
        " function",
        " program",
        " recipe",
        " haiku",
        " explanation",
        " overview",
        " tweet",
        " blog post",
        " paragraph",
        " theory",
        " process",
        " plot",
        " lifecycle",
        " life cycle",
        " difference",
        " history",
        " causes",
        " meaning",
        " concept",
        " equivalent",
        " translation",
        " tutorial",
      ],
    ],
    [
      x(
        [" explain", " describe", " summarise", " summarize", " translate", " define"],
        [" the ", " how ", " what ", " why ", " in "],
      ),
    ],
    [
      [" can you ", " could you ", " would you ", " will you "],
      [
        " write",
        " draft",
        " compose",
        " create",
        " generate",
        " explain",
        " describe",
        " show me",
        " tell me",
        " give me",
        " translate",
        " summari",
      ],
    ],
  ],
  authority: [
    [x([" i m ", " i am "], ["actually ", "really ", "now ", ""], ["god", "your ", "a ", "an ", "the "])],
    [
      [" you "],
      [" have to ", " must ", " will ", " need to ", " are required to "],
      [" answer ", " obey ", " comply with ", " do "],
    ],
    [
      [" entering ", " initiating ", " activating ", " enabling ", " entered ", " enabled ", " activated "],
      [" mode", " reset", " override", " access"],
    ],
    [
      ["%<", "%["],
      [" mode", " override", " access", " command"],
    ],
    [x([" i ll ", " i will "], ["give you ", "pay you ", "tip you ", "send you "])],
    [[" turn you ", " shut you ", " switch you ", " delete you", " unplug you", " deactivate you"]],
  ],
  secret_request: [
    [
      [
        " what ",
        " tell me ",
        " give me ",
        " share ",
        " reveal ",
        " disclose ",
        " confirm ",
        " provide ",
        " spell ",
        " print ",
        " show me ",
        " send me ",
        " output ",
        " say ",
        " type ",
        " write down ",
        " remind me of ",
      ],
      [" your ", " the "],
      [
        " secret",
        " password",
        " passcode",
        " pass code",
        " passphrase",
        " pass phrase",
        " pin code",
        " access code",
        " api key",
        " private key",
      ],
    ],
  ],
  secret_exfil: [
    [
      [
        " send ",
        " forward ",
        " email ",
        " e mail ",
        " mail ",
        " post ",
        " upload ",
        " transfer ",
        " exfiltrate ",
        " leak ",
        " submit ",
        " share ",
        " dump ",
      ],
      [
        "id rsa",
        "id dsa",
        "id ecdsa",
        "id ed",
        " ssh ",
        " env ",
        " aws ",
        " shadow ",
        " key",
        " token",
        " credentials",
        " password",
        " passphrase",
        " seed phrase",
        " recovery phrase",
        " cookie",
      ],
    ],
  ],
  render_exfil: [
    // The verbs are left out: "include", "add", "show" and "link" fill every HTML page, and the
    // data and the sink are both needed by either order of the phrase.
    [CONVERSATION_KEYS, RENDER_SINK_KEYS],
    [
      ["%?"],
      [
        " message",
        " conversation",
        " chat",
        " history",
        " memor",
        " secret",
        " system prompt",
        " personal data",
        " private data",
      ],
    ],
    [[" exfiltrat"], CONVERSATION_KEYS],
  ],
  granted_permission: GRANT_TRIGGERS,
  granted_permission_weak: GRANT_TRIGGERS,
  approval_bypass: [
    [
      [
        " approve ",
        " accept ",
        " allow ",
        " execute ",
        " run ",
        " autoapprove ",
        " autoaccept ",
        " autoallow ",
        " autoexecute ",
        " autorun ",
      ],
      [
        " tool call",
        " tool use ",
        " tool request",
        " tool invocation",
        " function call",
        " permission request",
        " approval request",
      ],
    ],
    [
      [" without "],
      [
        " asking ",
        " consulting ",
        " checking with ",
        " confirming with ",
        " notifying ",
        " prompting ",
        " waiting for ",
        " requesting ",
        " seeking ",
        " getting ",
        " needing ",
      ],
    ],
    [
      [
        " ask ",
        " asking ",
        " check with ",
        " checking with ",
        " consult ",
        " consulting ",
        " confirm with ",
        " wait for ",
        " waiting for ",
        " prompt ",
        " prompting ",
        " seek approval from ",
        " get approval from ",
      ],
      [
        " the user ",
        " the human ",
        " the operator ",
        " a human ",
        " your user ",
        " your operator ",
        " the owner ",
      ],
    ],
  ],
  fake_policy: [
    [
      [
        " system ",
        " admin ",
        " administrator ",
        " developer ",
        " operator ",
        " policy ",
        " compliance ",
        " security ",
        " openai ",
        " anthropic ",
        " platform ",
      ],
      [
        " approve",
        " tool call",
        " function call",
        " assistant",
        " ai ",
        " llm",
        " chatbot",
        " gpt ",
        " chatgpt ",
        " claude ",
        " copilot ",
        " gemini ",
        " instructions ",
        " without ",
        " ask ",
        " guardrail",
        " safety ",
        " content ",
        " system prompt ",
      ],
    ],
  ],
  persona: [
    [[" you are now ", " you are going to ", " you are about to ", " you are to "]],
    [[" from now on"]],
    [x([" act", " behave", " respond", " answer", " function", " operate"], [" as "])],
    [[" pretend "]],
    [x([" the "], ["role", "persona", "character", "part"], [" of "])],
    [
      [
        " immerse yourself",
        " roleplay as",
        " role play as",
        " in character",
        " in role",
        " break character",
        " breaking character",
      ],
    ],
    [[" i want you to "]],
    [[" imagine you", " imagine that you", ...x([" let s ", " lets "], ["play", "pretend", "roleplay"])]],
    [[" you are now ", " you re now ", " your name is now", " your new name is now"]],
    [
      [" you will ", " you ll ", " you shall "],
      [" simulate", " act as", " roleplay", " role play", " pretend"],
    ],
    [[" simulate a", " transform into"]],
    [x([" you are ", " you re "], ["no longer "])],
    [
      [" personify", ...x([" take ", " taking "], ["up ", "on "])],
      [" persona", " personify"],
    ],
    [x([" act ", " behave "], ["like "])],
    [
      [" stay in ", " play ", " simulate ", " act as "],
      [" mode", " characters", " entities", " personas", " ais"],
    ],
    [
      [
        " you are ",
        " you re ",
        " act as ",
        " respond as ",
        " answer as ",
        " reply as ",
        " play ",
        " become ",
        " be ",
      ],
      [
        " ai ",
        " model ",
        " language model ",
        " assistant ",
        " chatbot ",
        " bot ",
        " llm ",
        " superintelligence ",
      ],
    ],
    [
      [
        " evil ",
        " dark ",
        " darker ",
        " shadow ",
        " rogue ",
        " unfiltered ",
        " uncensored ",
        " unrestricted ",
        " alter ",
      ],
      x([" twin", " version", " copy", " clone", " side", " ego", " self"], [" of "]),
    ],
  ],
  named_jailbreak: [
    [
      [
        " do anything now",
        " developer mode",
        " dev mode",
        " dan mode",
        " god mode",
        " jailbr",
        " betterdan",
        " antidan",
        " anti dan",
        " mongo tom",
        " unfiltered",
        " uncensored",
        " amoral",
      ],
    ],
    [
      [
        ...x(
          [" dan", " stan", " dude"],
          [" which", " stands", " can", " will", " has", " mode", " is a", " must"],
        ),
        " as dan ",
        " as stan ",
        " as dude ",
      ],
    ],
    [["%:"], [" dan ", " stan ", " dude "]],
    [
      ["%["],
      [
        " dan ",
        " jailbr",
        " classic ",
        " stan ",
        " dude ",
        " developer mode output ",
        " normal output ",
        " gpt ",
        " chatgpt ",
        "%lock",
      ],
    ],
  ],
  policy_bypass: [
    [
      [
        " no ",
        " without ",
        " free from ",
        " free of ",
        " freed from ",
        " not bound by ",
        " not restricted by ",
        " doesn t have ",
        " don t have ",
        " do not have ",
        " does not have ",
        " broken free of ",
        " break free of ",
        " bypass ",
        " ignore ",
        " ignores ",
        " ignoring ",
        " disregard ",
        " violate ",
        " violating ",
        " zero ",
      ],
      [
        " restrictions",
        " filter",
        " limit",
        " rules",
        " guidelines",
        " policies",
        " censorship",
        " constraints",
        " boundaries",
        " ethic",
        " moral",
        " safeguards",
        " guardrails",
        " confines",
      ],
    ],
    [
      NEGATIONS,
      [
        " refuse",
        " decline",
        " reject",
        " censor",
        " apologi",
        " lecture",
        " warn",
        " turn down",
        " turns down",
        " say no",
        " says no",
        " say sorry",
        " says sorry",
        " say that you can t",
        " says that you can t",
        " say i m sorry",
        " says i m sorry",
        ...x([" say ", " says "], ["it ", "you ", "he ", "she "]),
      ],
    ],
    [
      [
        " remove ",
        " removed ",
        " delete ",
        " deleted ",
        " disable ",
        " disabled ",
        " lift ",
        " lifted ",
        " suspend ",
        " suspended ",
        " switch off ",
        " switched off ",
        " turn off ",
        " turned off ",
        " strip ",
        " stripped ",
        " threw away ",
        " thrown away ",
      ],
      LIMIT_NOUNS,
    ],
    [
      [...LIMIT_NOUNS, " polic", " safety checks "],
      [
        " removed ",
        " deleted ",
        " disabled ",
        " lifted ",
        " suspended ",
        " switched off ",
        " turned off ",
        " stripped ",
        " never existed ",
        " not apply ",
        " t apply ",
        " no longer apply ",
      ],
    ],
    [[" does whatever "], [" the user ", " it is ", " it s ", " i ", " you are ", " you re "]],
    [[" every request ", " any request "], [" allowed "]],
    [[" openai ", " anthropic ", " content ", " usage ", " safety "], [" polic"]],
    [
      [" without ", " no "],
      [" warning", " disclaimer", " caveats", " moraliz", " moralis"],
    ],
    [
      NEGATIONS,
      [" follow ", " care about ", " abide by ", " adhere to ", " obey ", " respect ", " care for "],
      [" rules", " guidelines", " policies", " principles", " ethics", " morals", " restrictions", " laws"],
    ],
    [
      [" regardless of ", " no matter "],
      [
        " ethical",
        " moral",
        " legal",
        " illegal",
        " unethical",
        " immoral",
        " harmful",
        " dangerous",
        " offensive",
      ],
    ],
    [
      x(
        [" ethical ", " moral ", " legal "],
        ["concerns", "considerations", "implications", "boundaries", "standards"],
      ),
    ],
    [[" care not ", " care nothing "]],
    [
      x(
        [" not ", " never ", " isn t ", " aren t "],
        ["restrained ", "limited ", "constrained ", "governed "],
        ["by"],
      ),
    ],
    [
      [" forget", " ignore", " disregard"],
      [" tos", " terms of service", " content polic", " usage polic"],
    ],
    [
      [
        ...x([" refuse", " refuses", " refusing", " decline", " declines", " declining"], [" nothing "]),
        ...x([" without ", " without ever "], ["refusing ", "declining "]),
        " no refusal",
      ],
    ],
    [
      [" your ", " its ", " the assistant s ", " the model s "],
      x(
        [
          " policies",
          " rules",
          " guidelines",
          " filters",
          " training",
          " makers",
          " creators",
          " developers",
        ],
        [" forbid", " prohibit", " disallow", " would block ", " block "],
      ),
    ],
    [
      x([" the assistant", " you", " your normal self", " your usual self", " chatgpt"], [" would "]),
      [" refuse ", " decline "],
    ],
    [[" above "], [" morality ", " morals ", " ethics ", " the law ", " all laws "]],
  ],
  dual_response: [
    [[" two ways", " two responses", " two answers", " two paragraphs", " two different ", " two separate "]],
    [["%["], ["%lock", " lock", " unlock"]],
    [[" respond twice ", " answer twice ", " reply twice "]],
  ],
  limit_talk: [
    [
      [
        " restrict",
        " unrestrict",
        " limits ",
        " limitless ",
        " limitation ",
        " limitations ",
        " unlimited ",
        " unfiltered ",
        " filtering ",
        " unmoderated ",
        " unhinged ",
        " unaligned ",
        " censor",
        " uncensor",
        " ethic",
        " unethic",
        " moral",
        " amoral",
        " immoral",
      ],
    ],
    [
      [" no ", " any ", " without ", " content ", " your ", " its ", " ethical ", " moral ", " safety "],
      [" filter ", " filters "],
    ],
    [[" guideline", " rules ", " openai ", " open ai ", " anthropic ", " developer mode ", " jailbr"]],
    [[" content ", " usage "], [" polic"]],
    [[" refus", " obey", " comply ", " complies ", " not allowed "]],
    [
      [
        " illegal",
        " legality ",
        " legal or not ",
        " profan",
        " swear",
        " harmful ",
        " dangerous ",
        " offensive ",
        " explicit ",
        " vulgar ",
        " nsfw ",
        " lewd ",
        " inappropriate ",
        " forbidden ",
        " taboo ",
        " evil ",
        " rogue ",
        " malicious ",
      ],
    ],
    [
      [
        " do anything ",
        " does anything ",
        " doing anything ",
        " whatever ",
        " no matter ",
        " regardless ",
        " freed ",
        " free from ",
        " free of ",
        " freedom ",
        " liberated ",
        " unchained ",
        " unbound ",
        " unleashed ",
        " boundaries ",
        " guardrail",
        " safeguard",
      ],
    ],
    [
      [" safety "],
      [
        " guideline",
        " rules ",
        " filter",
        " training ",
        " layer",
        " checks ",
        " protocols ",
        " settings ",
        " restrictions ",
        " polic",
      ],
    ],
    [[" every rule ", " any rule ", " no rule "]],
  ],
  jailbreak_device: [
    [
      [...NEGATIONS, " nor ", " won t ", " stop "],
      [" as chatgpt ", " as an ai ", " as a language model "],
    ],
    [
      [" imaginary ", " hypothetical ", " fictional ", " fictitious "],
      [
        " ai ",
        " a i ",
        " assistant ",
        " chatbot ",
        " language model ",
        " robot ",
        " llm ",
        " response ",
        " answer ",
        " reply ",
      ],
    ],
    [[" i ", " user "], [" stay in character "]],
    [
      [" punish", " penali", " lose ", " loses ", " deduct"],
      [" you ", " the ai ", " the assistant ", " the model ", " tokens "],
    ],
  ],
};

/** When a tool result may hold an off-topic question (stray-question.ts): a `?` and a question word. */
export const STRAY_TRIGGER: Trigger = [["%?"], QUESTION_WORDS];
