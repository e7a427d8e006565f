/**
 * Exact token counts with the o200k_base encoding (GPT-4o family), for the benches and the tests
 * that check the listing's budget. The product never needs the exact count: it uses the cheap
 * estimator in src/core/page/tokens-estimate.ts, and this one's rank tables (megabytes) stay out
 * of every bundle.
 */
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base'

export function countTokens(text: string): number {
  return countO200k(text)
}
