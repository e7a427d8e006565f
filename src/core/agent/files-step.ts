import type { Msg } from '../chat'
import type { ExecFailure, ExecOutcome } from '../exec'
import { urlHost } from '../host'
import type { Instruction } from '../instruction/schema'
import type { Attachment, AttachmentInfo } from './attachments'
import type { AgentPorts } from './ports'
import { untrusted } from './prompt'
import {
  pickServed,
  readServed,
  servedKind,
  servedReport,
  unmatchedServed,
  type ServedContent,
  type ServedFile,
} from './served-files'
import { formatSize } from './attachments'

/**
 * The run's side of the files a page hands over (docs/agent.md, "Files the page hands over"): the
 * `read_file` step, the files an `upload` step may name besides the attached ones, and the words
 * that name each new file in the chat and in the model's next turn. The bytes stay in the
 * background (src/background/downloads.ts); the model reads only what `servedReport` lets through.
 */

const msg = (key: string, params?: Msg['params']): Msg => ({ key, ...(params ? { params } : {}) })

/** Without the `downloads` permission: what the step could not see, and where the person allows it. */
function downloadsOff(action: string): ExecFailure {
  return {
    ok: false,
    code: 'INVALID',
    message: `${action}: Ava cannot see files that pages download, because the person has not allowed it (the optional "downloads" permission, in Ava's options under "Downloaded files"). Tell the person so; do not try again.`,
    msg: msg('outcome.step.downloadsOff'),
  }
}

/** A `read_file` step: the named file's text, or a ZIP's entries, redacted of `hidden` and bounded. */
export async function readFileStep(
  ports: AgentPorts,
  ins: Instruction,
  hidden: readonly string[],
): Promise<ExecOutcome> {
  const port = ports.files
  if (!port || !(await port.allowed())) return downloadsOff('read_file')
  const value = ins.params.value ?? ''
  const files = await port.list()
  const file = pickServed(value, files)
  if (!file)
    return { ok: false, code: 'INVALID', message: unmatchedServed(value, files), msg: msg('outcome.step.noServedFile') }
  const kind = servedKind(file.name, file.mimeType)
  const bytes = kind === 'program' ? null : await port.bytes(file.name)
  let content: ServedContent
  if (kind === 'pdf' && bytes) {
    const text = await port.pdfText(bytes).catch(() => undefined)
    content = readServed(file, bytes, text)
  } else content = readServed(file, bytes)
  const report = servedReport(file, content, hidden)
  const site = urlHost(file.site) ?? file.site
  if (!report.ok)
    return {
      ok: false,
      code: 'INVALID',
      message: report.detail,
      msg: msg('outcome.step.fileUnread', { name: file.name }),
    }
  return { ok: true, detail: report.detail, msg: msg('step.fileRead', { name: file.name, site }) }
}

/**
 * The files an `upload` step may name: the attached ones, then those pages downloaded during the
 * run (each bound to the site that served it, marked `served` so the question names that site).
 * A program is never offered for upload.
 */
export async function uploadableFiles(
  ports: AgentPorts,
  attached: AttachmentInfo[],
  held: Attachment[],
): Promise<{ attached: AttachmentInfo[]; held: Attachment[] }> {
  const port = ports.files
  if (!port || !(await port.allowed().catch(() => false))) return { attached, held }
  const served = (await port.list()).filter(
    (f) => servedKind(f.name, f.mimeType) !== 'program' && !attached.some((a) => a.name === f.name),
  )
  const more: Attachment[] = []
  for (const f of served) {
    const bytes = await port.bytes(f.name)
    if (!bytes) continue
    more.push({
      name: f.name,
      size: f.size,
      base64: toBase64(bytes),
      site: f.site,
      served: true,
      ...(f.mimeType ? { mimeType: f.mimeType } : {}),
    })
  }
  return {
    attached: [
      ...attached,
      ...more.map((m) => ({ name: m.name, size: m.size, ...(m.mimeType ? { mimeType: m.mimeType } : {}) })),
    ],
    held: [...held, ...more],
  }
}

function toBase64(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(s)
}

/** Files already named in the chat, by run. */
const announced = new Map<string, Set<string>>()

/**
 * The run's files for the model's next turn, and each new one named in the chat for the person.
 * Names and types come from the server that sent them: inside the page block.
 */
export async function servedTurn(
  ports: AgentPorts,
  runId: string,
  say: (text: string) => Promise<void>,
): Promise<string> {
  const port = ports.files
  if (!port || !(await port.allowed().catch(() => false))) return ''
  const files = await port.list().catch(() => [] as ServedFile[])
  if (!files.length) return ''
  const seen = announced.get(runId) ?? new Set<string>()
  announced.set(runId, seen)
  for (const f of files) {
    if (seen.has(f.name)) continue
    seen.add(f.name)
    const site = urlHost(f.site) ?? f.site
    // In the run's own message, where its steps are: the name is the server's, escaped for markdown.
    await say(
      `\n\n_The page downloaded “${mdEscape(f.name)}” (${formatSize(f.size)}) from ${mdEscape(site)}: Ava can read it, or upload it to another site after asking you; it stays in your downloads._\n\n`,
    ).catch(() => undefined)
  }
  return [
    '',
    'Files pages downloaded during this run (read one with read_file, or upload it with upload; each is bound to the site that served it):',
    untrusted(
      files.map(
        (f) =>
          `- ${JSON.stringify(f.name)} (${servedKind(f.name, f.mimeType)}, ${formatSize(f.size)}, from ${urlHost(f.site) ?? f.site})`,
      ),
    ),
  ].join('\n')
}

const mdEscape = (text: string) => text.replace(/[\\`*_{}[\]()<>#+!|~-]/g, (c) => `\\${c}`)

/** The run ended: its files are no longer named. */
export function forgetServed(runId: string): void {
  announced.delete(runId)
}
