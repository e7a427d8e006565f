/**
 * Published list prices (USD per million tokens, input/output) of common models, to show what a
 * run cost. Unknown models show tokens only. Checked 2026-11; prices change, so this is a hint.
 */
const kPrices: [RegExp, number, number][] = [
  [/claude-(?:3-5-)?haiku/i, 0.8, 4],
  [/claude-.*sonnet/i, 3, 15],
  [/claude-.*opus/i, 15, 75],
  [/gpt-4\.1-mini/i, 0.4, 1.6],
  [/gpt-4\.1-nano/i, 0.1, 0.4],
  [/gpt-4\.1(?!-)/i, 2, 8],
  [/gpt-4o-mini/i, 0.15, 0.6],
  [/gpt-4o(?!-)/i, 2.5, 10],
]

export function costUsd(model: string, usage: { input: number; output: number }): number | undefined {
  const hit = kPrices.find(([re]) => re.test(model))
  if (!hit) return undefined
  return (usage.input * hit[1] + usage.output * hit[2]) / 1_000_000
}
