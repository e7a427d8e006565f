import type { RiskCategory } from '../exec'

/**
 * Words that make a click risky (issue 6): destroying data or moving money. Matched as whole
 * words in English and as substrings in Chinese, against the element's visible label.
 */
const kDestructive = /\b(delete|remove|erase|destroy|drop|cancel (?:my )?(?:account|subscription|order))\b|删除|移除|清空|注销/i
const kPayment = /\b(pay|payment|purchase|buy|checkout|check out|transfer|send money|place order|subscribe)\b|支付|付款|购买|转账|下单|结算/i

export function riskOfLabel(label: string): RiskCategory | null {
  if (kPayment.test(label)) return 'payment'
  if (kDestructive.test(label)) return 'destructive'
  return null
}

/** Two URLs are the same site when their hosts match, ignoring a leading `www.`. */
export function sameSite(a: string, b: string): boolean {
  try {
    const host = (u: string) => new URL(u).hostname.replace(/^www\./, '')
    return host(a) === host(b)
  } catch {
    return false
  }
}

export const kRiskReasons: Record<RiskCategory, string> = {
  credentials: 'submits a form with a password',
  payment: 'may move money',
  destructive: 'may delete something',
  cross_site: 'goes to another site',
  high_risk_action: 'runs an action marked high-risk',
}
