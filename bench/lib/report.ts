/** One benchmark figure. With `--json` each is one line; otherwise an aligned row. */
export interface BenchResult {
  suite: string
  case: string
  metric: string
  value: number
  unit: string
}

const json = process.env.AVA_BENCH_JSON === '1'

/**
 * Smoke mode (`npm run bench -- --smoke`, CI): every case runs once, so a suite that no longer
 * works fails loudly; its figures are printed but mean nothing and nothing judges them.
 */
export const kSmoke = process.env.AVA_BENCH_SMOKE === '1'

/** How many measured runs a suite makes: its own count, or one in smoke mode. */
export function runsOf(n: number): number {
  return kSmoke ? 1 : n
}

export function report(r: BenchResult): void {
  const value = Number.isInteger(r.value) ? r.value : Number(r.value.toFixed(2))
  if (json) console.log(JSON.stringify({ ...r, value }))
  else console.log(`${r.suite.padEnd(10)} ${r.case.padEnd(34)} ${r.metric.padEnd(28)} ${String(value).padStart(12)} ${r.unit}`)
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/** Runs `fn` once to warm up, then `runs` times, and returns the timings in ms. */
export async function time(fn: () => unknown | Promise<unknown>, runs: number): Promise<number[]> {
  await fn()
  const out: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await fn()
    out.push(performance.now() - t0)
  }
  return out
}
