// The `upload` action threaded through the instruction schema, the page command, the pack step
// and the channel port.
import { describe, expect, it } from 'vitest'
import { safeParseInstruction } from '../../../src/core/instruction/schema'
import { actionOf, type PageCommand, type PageOutcome, type SendCommand } from '../../../src/core/page/command'
import { createChannelPort } from '../../../src/core/page/channel'
import { parseSelector } from '../../../src/core/page/selectors'
import { getStepAction } from '../../../src/core/registry/step-actions'

const signal = new AbortController().signal

function recorder() {
  const sent: PageCommand[] = []
  const send = (async (c: PageCommand) => {
    sent.push(c)
    return { ok: true, detail: 'done' } as PageOutcome
  }) as SendCommand
  return { sent, send }
}

describe('upload instruction', () => {
  it('needs a value (the file the person attached) and a locator', () => {
    const good = safeParseInstruction({
      step_id: 1,
      action_type: 'upload',
      params: { semantic_locator: 'Resume', value: 'cv.pdf' },
    })
    expect(good.success).toBe(true)
    const bad = safeParseInstruction({ step_id: 1, action_type: 'upload', params: { value: 'cv.pdf' } })
    expect(bad.success || bad.error.issues).toEqual([
      {
        path: 'params',
        message: 'upload needs one of params.target_id, params.semantic_locator, params.fallback_selector',
      },
    ])
  })

  it('becomes an upload page action naming the file', () => {
    const r = safeParseInstruction({
      step_id: 1,
      action_type: 'upload',
      params: { target_id: 'file_resume', value: 'cv.pdf' },
    })
    if (!r.success) throw r.error
    expect(actionOf(r.data)).toEqual({
      action: 'upload',
      target: { targetId: 'file_resume', semantic: undefined },
      value: 'cv.pdf',
    })
  })
})

describe('upload pack step and port', () => {
  it('the step takes bytes or a path, and nothing else', () => {
    const args = getStepAction('upload')!.args
    expect(args.safeParse({ selector: '#f', files: [{ name: 'a.txt', base64: 'aGk=' }] }).success).toBe(true)
    expect(args.safeParse({ selector: '#f', files: [{ path: './a.txt' }] }).success).toBe(true)
    expect(args.safeParse({ selector: '#f', files: [] }).success).toBe(false)
    expect(args.safeParse({ selector: '#f', files: [{ name: 'a.txt' }] }).success).toBe(false)
  })

  it('bytes go to the page as they are; a path is read by the carrier', async () => {
    const { sent, send } = recorder()
    const read: string[] = []
    const port = createChannelPort(send, {
      navigate: async () => undefined,
      readFile: async (path) => {
        read.push(path)
        return { name: 'b.csv', mimeType: 'text/csv', base64: 'eA==' }
      },
    })
    await port.upload!(parseSelector('#f'), [{ name: 'a.txt', base64: 'aGk=' }, { path: 'data/b.csv' }], signal)
    expect(read).toEqual(['data/b.csv'])
    expect(sent).toHaveLength(1)
    const cmd = sent[0] as PageCommand<'act'>
    expect(cmd.step).toMatchObject({
      action: 'upload',
      files: [
        { name: 'a.txt', base64: 'aGk=' },
        { name: 'b.csv', mimeType: 'text/csv', base64: 'eA==' },
      ],
    })
  })

  it('a path where nothing can read the disk fails before the page is asked', async () => {
    const { sent, send } = recorder()
    const port = createChannelPort(send, { navigate: async () => undefined })
    await expect(port.upload!(parseSelector('#f'), [{ path: '/home/me/cv.pdf' }], signal)).rejects.toThrow(
      'Cannot read /home/me/cv.pdf here',
    )
    expect(sent).toEqual([])
  })
})
