/**
 * The rules for questions waiting on the person, as data: each row is one situation, the answer
 * it gets, and the code that enforces it. docs/architecture.md ("Questions waiting on the person")
 * shows the same rows, and a meta-test (test/core/gate/question-rules.test.ts) fails when a row
 * has no enforcing function, when that function is never called from the extension (a rule
 * written down but not wired), when no test names the row, or when the docs' table says other.
 *
 * Pure data: no chrome, no DOM.
 */

/** A function that enforces a rule: exported from `file` (a path from the repository root) under `symbol`. */
export interface Enforcer {
  file: string
  symbol: string
}

export interface QuestionRule {
  /** Tests name the rule they cover as `(rule: <id>)` in their title. */
  id: string
  /** The situation, as the docs' table says it. */
  situation: string
  enforcedBy: readonly Enforcer[]
}

const registry = { file: 'src/core/gate/questions.ts', symbol: 'createQuestionRegistry' }
const answerQuestion = { file: 'src/background/questions.ts', symbol: 'answerQuestion' }

export const kQuestionRules: readonly QuestionRule[] = [
  {
    id: 'first-answer',
    situation: 'the first answer from the place that shows the question',
    enforcedBy: [registry, answerQuestion],
  },
  {
    id: 'second-answer',
    situation: 'a second answer (double click, another panel on the same conversation)',
    enforcedBy: [registry, answerQuestion],
  },
  {
    id: 'elsewhere',
    situation: 'an answer from another tab or another popup run',
    enforcedBy: [registry, answerQuestion],
  },
  {
    id: 'stop',
    situation: "Stop (in the panel or the popup, for that tab): closes every question shown in the tab, `/run`'s too",
    enforcedBy: [registry, { file: 'src/background/questions.ts', symbol: 'stopQuestions' }],
  },
  {
    id: 'owner-ended',
    situation: 'what asked it ended (run finished, MCP session ended or revoked, popup run over)',
    enforcedBy: [registry, { file: 'src/background/questions.ts', symbol: 'openPopupRun' }],
  },
  {
    id: 'tab-closed',
    situation: 'its tab closed',
    enforcedBy: [registry, { file: 'src/background/questions.ts', symbol: 'watchQuestionTabs' }],
  },
  {
    id: 'popup-timeout',
    situation: "the popup's question unanswered for 2 minutes (the popup may be closed)",
    enforcedBy: [registry, { file: 'src/background/questions.ts', symbol: 'askInPopup' }],
  },
  {
    id: 'navigated',
    situation: 'the tab navigated while the question was open',
    enforcedBy: [{ file: 'src/core/gate/step.ts', symbol: 'askUntilDecided' }],
  },
  {
    id: 'worker-restart',
    situation: 'the worker restarted: the registry (memory) is gone',
    enforcedBy: [answerQuestion, { file: 'src/core/agent/run.ts', symbol: 'resumeRun' }],
  },
]
