/**
 * Exact token counts for budgets and reports, with the o200k_base encoding (GPT-4o family).
 * It lives in core so the background and Node tools can import it without any page code; the
 * page side uses the cheap estimator in src/core/page/tokens-estimate.ts instead, because this
 * one carries the encoding's rank tables (megabytes) with it.
 */
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base'

export function countTokens(text: string): number {
  return countO200k(text)
}
