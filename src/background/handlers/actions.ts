import browser from 'webextension-polyfill'
import { parseSlash, kSlashUsage, type SlashCommand } from '../../core/slash'
import { formatDescription, formatList } from '../../core/registry'
import type { Msg } from '../../core/chat'
import { handle, type PackSummary } from '../../messaging'
import { actionApi, describeResult, getRegistry, resultMsg } from '../actions'
import { chatWriter, conversationOf } from '../conversation'
import { replayGuard } from '../recorder'
import { settingsStore } from '../../storage/settings'

/** The tab an extension page means: the sender's own tab, else the active tab of the last window. */
async function targetTab(ctx: { tabId?: number; kind: string }): Promise<number | undefined> {
  if (ctx.kind === 'panel' && ctx.tabId !== undefined) return ctx.tabId
  const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true })
  return tab?.id
}

async function runSlash(command: SlashCommand, tabId: number): Promise<{ text: string; ok: boolean; msg?: Msg }> {
  // The person's own /run passes the gate every step passes: a risky step asks here.
  const api = await actionApi(
    tabId,
    command.kind === 'run' ? await replayGuard(tabId, () => tabId, `/run ${command.action}`, { own: true }) : undefined,
    (await settingsStore.get()).safety.showPlans,
  )
  if (command.kind === 'actions')
    return { ok: true, text: `\`\`\`\n${formatList(await api.list({ namespace: command.namespace }))}\n\`\`\`` }
  if (command.kind === 'describe') {
    const d = await api.describe({ action: command.action })
    return d.ok
      ? { ok: true, text: `\`\`\`\n${formatDescription(d.action)}\n\`\`\`` }
      : { ok: false, text: `${d.error.message} ${d.error.suggestion ?? ''}` }
  }
  if (command.kind === 'dry-run') {
    const r = await api.dryRun({ action: command.action, params: command.params })
    return { ok: r.success, text: `\`\`\`\n${r.text}\n\`\`\`` }
  }
  const r = await api.run({ action: command.action, params: command.params })
  return { ok: r.success, text: describeResult(r), msg: resultMsg(r) }
}

async function maskedEcho(command: SlashCommand, text: string): Promise<string> {
  if (command.kind !== 'run' && command.kind !== 'dry-run') return text
  const d = (await getRegistry()).describe(command.action)
  const secret = new Set(
    Object.entries(d?.paramDetails ?? {})
      .filter(([, p]) => p.secret)
      .map(([n]) => n),
  )
  const flags = Object.entries(command.params).map(([k, v]) =>
    v === true ? `--${k}` : `--${k} ${secret.has(k) ? '***' : JSON.stringify(v)}`,
  )
  return [`/${command.kind}`, command.action, ...flags].join(' ')
}

export function registerActionHandlers(): void {
  handle('ui→bg:action', ['panel', 'popup', 'options'], async (command, ctx) => {
    const api = await actionApi(await targetTab(ctx))
    return api.handle(command)
  })

  handle('panel→bg:slash', ['panel'], async ({ text }, ctx) => {
    const tabId = ctx.tabId!
    const chat = chatWriter(await conversationOf(tabId), () => tabId)
    const parsed = parseSlash(text)
    // What the person typed is kept, but never a secret param's value.
    await chat.add({ role: 'user', text: parsed.ok ? await maskedEcho(parsed.command, text) : text })
    const out: { ok: boolean; text: string; msg?: Msg } = parsed.ok
      ? await runSlash(parsed.command, tabId).catch((e: Error) => ({ ok: false, text: e.message }))
      : { ok: false, text: parsed.error || kSlashUsage }
    // A pack run is said in the person's language; the engine's English, with any data the action
    // returned, goes behind Details.
    const said = out.msg ? { msg: out.msg, details: out.text.replace(/\*\*/g, '') } : {}
    await chat.add({
      role: 'assistant',
      text: out.text,
      markdown: !out.msg,
      kind: out.ok ? undefined : 'error',
      usage: { input: 0, output: 0 },
      replayed: true,
      ...said,
    })
    return { ok: out.ok }
  })

  handle('popup→bg:packs.list', ['popup', 'options'], async () => {
    const registry = await getRegistry()
    const packs: PackSummary[] = registry.list().map((n) => ({
      namespace: n.namespace,
      version: n.version,
      description: n.description,
      actions: n.actions.length,
      source: [...new Set(n.sources.map((x) => x.source))].join(', '),
    }))
    return { packs }
  })
}
