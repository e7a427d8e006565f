import { kRiskReasons, riskOfLabel } from '../core/agent/risk'
import type { RiskCategory } from '../core/exec'
import type { Instruction } from '../core/instruction/schema'

/**
 * Whether acting on `el` is risky (issue 6 safety): submitting a form that holds a password or
 * payment details, or clicking something that deletes or pays. Decided in the page, where the
 * element and its form are, before anything is done.
 */
const kPaymentField = /(^|[-_\s])(cc|card|cvv|cvc|iban|credit)([-_\s]|number|$)/i

function formOf(el: Element): HTMLFormElement | null {
  if (el instanceof HTMLButtonElement || el instanceof HTMLInputElement) return el.form
  return el.closest('form')
}

function submits(el: Element, action: Instruction['action_type']): boolean {
  if (action === 'press') return el instanceof HTMLInputElement && !!el.form
  if (el instanceof HTMLButtonElement) return el.type === 'submit' && !!el.form
  if (el instanceof HTMLInputElement) return (el.type === 'submit' || el.type === 'image') && !!el.form
  // Component libraries often submit from a plain button inside the form.
  return !!el.closest('form') && /\b(submit|log ?in|sign ?in|登录|提交)\b/i.test(labelOf(el))
}

export function labelOf(el: Element): string {
  const v = el instanceof HTMLInputElement && /^(submit|button|reset)$/i.test(el.type) ? el.value : ''
  return [el.getAttribute('aria-label'), el.getAttribute('title'), v, el.textContent].filter(Boolean).join(' ').replace(/\s+/g, ' ').trim().slice(0, 80)
}

export function riskOf(el: Element, action: Instruction['action_type']): { category: RiskCategory; reason: string } | null {
  if (action !== 'click' && action !== 'press') return null
  const form = submits(el, action) ? formOf(el) : null
  if (form) {
    const fields = [...form.elements].filter((f): f is HTMLInputElement => f instanceof HTMLInputElement)
    if (fields.some((f) => /^cc-/.test(f.autocomplete) || kPaymentField.test(f.name) || kPaymentField.test(f.id))) return { category: 'payment', reason: `submits a form with payment details` }
    if (fields.some((f) => f.type === 'password')) return { category: 'credentials', reason: kRiskReasons.credentials }
  }
  const category = action === 'click' ? riskOfLabel(labelOf(el)) : null
  return category ? { category, reason: `"${labelOf(el).slice(0, 40)}" ${kRiskReasons[category]}` } : null
}
