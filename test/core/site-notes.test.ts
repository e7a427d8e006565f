import { describe, expect, it } from 'vitest'
import { addNote, notesFor, removeNote } from '../../src/core/site-notes'
import { buildUserPrompt, kUntrustedClose } from '../../src/core/agent/prompt'

describe('site notes', () => {
  const notes = addNote(
    addNote({}, 'shop.example', 'use the business account'),
    'https://shop.example/cart',
    'never pick express shipping',
  )

  it('are kept per exact origin and found only for that origin', () => {
    expect(notes).toEqual({ 'https://shop.example': ['use the business account', 'never pick express shipping'] })
    expect(notesFor(notes, 'https://shop.example/checkout?x=1')?.notes).toHaveLength(2)
    for (const other of [
      'http://shop.example/',
      'https://pay.shop.example/',
      'https://shop.example.evil.test/',
      'https://other.example/',
    ])
      expect(notesFor(notes, other), other).toBeNull()
  })

  it('refuse an empty note or a site that is no web address, with one clear message', () => {
    expect(() => addNote({}, 'shop.example', '   ')).toThrow('A site note cannot be empty.')
    expect(() => addNote({}, 'mailto:x', 'hi')).toThrow('"mailto:x" is not a web site')
    expect(removeNote(notes, 'https://shop.example', 0)).toEqual({
      'https://shop.example': ['never pick express shipping'],
    })
  })

  it("reach the prompt as the person's words, outside the untrusted page block", () => {
    const prompt = buildUserPrompt(
      'order paper',
      { url: 'https://shop.example/', title: 'Shop', listing: '[1] button "Buy"' },
      [],
      [],
      notesFor(notes, 'https://shop.example/'),
    )
    const after = prompt.slice(prompt.indexOf(kUntrustedClose))
    expect(after).toContain("The person's own notes for https://shop.example (follow them on this site only):")
    expect(after).toContain('- never pick express shipping')
    expect(prompt.indexOf('never pick express')).toBeGreaterThan(prompt.indexOf(kUntrustedClose))
  })
})
