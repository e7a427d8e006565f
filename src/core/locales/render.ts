/**
 * Says a `Msg` (a locale key and its parameters) from a locale table, outside Vue: the CLI prints
 * English from the same table the panel reads (src/core/locales/en.ts), and tests read what a
 * person would read in either language.
 *
 * It is vue-i18n's own formatter, `@intlify/core-base` (the package vue-i18n is built on), not a
 * second reading of the syntax: `{name}`, plurals `'a | b'` picked from `n` or `count`, literals
 * `{'@'}` mean here exactly what they mean in the panel. Its message compiler builds an AST and
 * interprets it (no eval, no `new Function`), so it runs on Node and under an extension's CSP.
 */
import { compile, createCoreContext, registerMessageCompiler, translate, type CoreContext } from '@intlify/core-base'
import type { Msg } from '../chat'
import { failureDocs, failureHint, failureMsg } from '../failure'
import en from './en'

export type LocaleTable = Readonly<Record<string, string>>

registerMessageCompiler(compile)

/** A table is flat: the whole dotted key is the key, as src/ui/i18n.ts reads it. */
function resolveFlat(table: unknown, key: string): string | null {
  const value = (table as Record<string, unknown>)[key]
  return typeof value === 'string' ? value : null
}

/** A renderer over one table; a key the table lacks comes back as the key (as vue-i18n does). */
export function createRenderer(table: LocaleTable, locale = 'en'): (m: Msg) => string {
  const ctx: CoreContext = createCoreContext({
    locale,
    messages: { [locale]: table } as never,
    messageResolver: resolveFlat,
    missingWarn: false,
    fallbackWarn: false,
    warnHtmlMessage: false,
  })
  return (m) => {
    const out = translate(ctx, m.key, { ...(m.params ?? {}) })
    return typeof out === 'string' ? out : m.key
  }
}

/** The English sentence of `m`, from src/core/locales/en.ts. */
export const renderEn = createRenderer(en)

/**
 * A failure as a terminal says it, each line indented by `indent`: the code's sentence from the en
 * table (what the panel says in English), then the technical words behind it (`detail`, English
 * from the page or the engine, as the panel's Details), then what to do (the code's hint), then
 * where the troubleshooting page says more (for the failures a person meets first).
 * `sentence` overrides the code's own (an action's "Failed: …" clause).
 */
export function failureLinesEn(
  code: string,
  o: { n?: number | string; detail?: string; sentence?: Msg; indent?: string } = {},
): string[] {
  const indent = o.indent ?? '   '
  const sentence = renderEn(o.sentence ?? failureMsg(code, o.n === undefined ? {} : { n: o.n }))
  const hint = failureHint(code)
  const docs = failureDocs(code)
  return [
    sentence,
    ...(o.detail ? [`detail: ${o.detail}`] : []),
    ...(hint ? [`hint: ${renderEn(hint)}`] : []),
    ...(docs ? [renderEn(docs)] : []),
  ].map((l) => indent + l)
}
