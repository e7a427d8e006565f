import type { RiskCategory } from '../exec'
import { riskOfText } from '../risk/decide'

/**
 * The risky meaning of a label alone, in any of the lexicon's languages. Steps on
 * a page are judged with their element and its context by src/dom/risk.ts; this is for text only.
 */
export const riskOfLabel = riskOfText

export const kRiskReasons: Record<RiskCategory, string> = {
  credentials: 'submits a form with a password',
  payment: 'may move money',
  destructive: 'may delete something',
  cross_site: 'goes to another site',
  high_risk_action: 'runs an action marked high-risk',
  permission: 'may grant access',
  data_send: 'may send data',
}
