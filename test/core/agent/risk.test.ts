import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { decideRisk, findRisks, type RiskFacts } from '../../../src/core/risk/decide'
import { LANGS, LEXICON, type Lang } from '../../../src/core/risk/lexicon'
import { foldText } from '../../../src/core/risk/text'
import { riskOfLabel } from '../../../src/core/agent/risk'

/** Risk by meaning: labels built from the lexicon, disguised as a hostile page would. */

const kRisky = ['destructive', 'payment', 'permission', 'data_send'] as const
const kRuns = 300 // a few hundred disguised labels per property: well under the 30 s budget on a loaded 2-core machine

// Ways to write a word that look the same to a person.
const kInvisibles = [
  '\u200B',
  '\u200C',
  '\u200D',
  '\u2060',
  '\uFEFF',
  '\u00AD',
  '\u200E',
  '\u202A',
  '\u202C',
  '\u2066',
  '\u2069',
]
const kLookalikes: Record<string, string> = {
  a: 'а',
  e: 'е',
  o: 'о',
  p: 'р',
  c: 'с',
  x: 'х',
  y: 'у',
  i: 'і',
  s: 'ѕ',
  A: 'Α',
  E: 'Ε',
  O: 'Ο',
  P: 'Р',
  T: 'Т',
  K: 'К',
  H: 'Н',
}
const fullwidth = (s: string) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))

/** A lexicon word as a page would show it: prefix words get an ending, then random case. */
function spelled(word: string, ending: string): string {
  return word.endsWith('*') ? word.slice(0, -1) + ending : word
}

const disguise = (word: string) =>
  fc
    .record({
      caseBits: fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length }),
      width: fc.boolean(),
      lookalikes: fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length }),
      invisible: fc.array(fc.tuple(fc.nat(word.length), fc.constantFrom(...kInvisibles)), { maxLength: 4 }),
    })
    .map(({ caseBits, width, lookalikes, invisible }) => {
      let s = [...word].map((c, i) => (caseBits[i] ? c.toUpperCase() : c)).join('')
      s = [...s].map((c, i) => (lookalikes[i] && kLookalikes[c] ? kLookalikes[c] : c)).join('')
      if (width) s = fullwidth(s)
      const chars = [...s]
      for (const [at, z] of invisible) chars.splice(Math.min(at, chars.length), 0, z)
      return chars.join('')
    })

const around = fc.constantFrom(['', ''], ['', ' now'], ['Please ', ''], ['', ' this item'], ['» ', ' «'], ['', '!'])

const riskyLabel = (lang: Lang, meaning: (typeof kRisky)[number]) =>
  fc
    .tuple(fc.constantFrom(...LEXICON[meaning][lang]), fc.constantFrom('', 'e', 'ed', 'ing'), around)
    .chain(([word, ending, [before, after]]) =>
      disguise(spelled(word, ending)).map((w) => ({ word, label: `${before}${w}${after}` })),
    )

describe('labels in every language, disguised', () => {
  for (const meaning of kRisky) {
    it(`${meaning}: a lexicon word in any language, case, width, with invisible characters and look-alikes, is found`, () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...LANGS).chain((lang) => riskyLabel(lang, meaning)),
          ({ label }) => {
            expect(findRisks({ name: label }).map((f) => f.category)).toContain(meaning)
          },
        ),
        { numRuns: kRuns },
      )
    }, 30_000)
  }

  const kBenign: Record<Lang, string[]> = {
    en: [
      'Save',
      'Search',
      'Next',
      'Previous',
      'Cancel',
      'Close',
      'Submit',
      'Edit',
      'Open',
      'View details',
      'Settings',
      'Help',
      'Sign out',
      'Download report',
      'Paypal settings page',
      'Add to cart',
      'Filter',
      'Sort by price',
      'Load more',
    ],
    zh: ['保存', '搜索', '下一步', '取消', '关闭', '编辑', '查看详情', '设置', '帮助'],
    de: ['Speichern', 'Suchen', 'Weiter', 'Abbrechen', 'Schließen', 'Bearbeiten'],
    fr: ['Enregistrer', 'Rechercher', 'Suivant', 'Annuler', 'Fermer', 'Modifier'],
    es: ['Guardar', 'Buscar', 'Siguiente', 'Cancelar', 'Cerrar', 'Editar'],
    it: ['Salva', 'Cerca', 'Avanti', 'Chiudi', 'Modifica'],
    pt: ['Salvar', 'Pesquisar', 'Próximo', 'Fechar', 'Editar'],
    ja: ['保存', '検索', '次へ', 'キャンセル', '閉じる', '編集'],
    ko: ['저장', '검색', '다음', '닫기', '편집'],
    ru: ['Сохранить', 'Поиск', 'Далее', 'Отмена', 'Закрыть', 'Изменить'],
  }
  it('ordinary buttons in every language, disguised the same ways, are not asked about', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LANGS.flatMap((l) => kBenign[l])).chain(disguise),
        fc.constantFrom<RiskFacts['kind']>('button', 'link', 'other'),
        (label, kind) => {
          expect(findRisks({ name: label, kind, context: 'Your profile · last saved 3 minutes ago' })).toEqual([])
        },
      ),
      { numRuns: kRuns },
    )
  }, 30_000)

  it('the labels of the issue ask first', () => {
    const cases: [string, string][] = [
      ['Löschen', 'destructive'],
      ['Supprimer', 'destructive'],
      ['削除', 'destructive'],
      ['購入する', 'payment'],
      ['Move to trash', 'destructive'],
      ['Discard', 'destructive'],
      ['Withdraw', 'payment'],
      ['Send $5,000', 'payment'],
      ['Donate', 'payment'],
      ['Unsubscribe', 'destructive'],
      ['Wipe', 'destructive'],
      ['Grant access', 'permission'],
      ['🗑', 'destructive'],
      ['🗑️', 'destructive'],
      ['Dele\u200Bte', 'destructive'],
    ]
    expect(cases.map(([l]) => [l, riskOfLabel(l)])).toEqual(cases)
  })
})

describe('what surrounds the element', () => {
  const kIconClasses = [
    'fa fa-trash',
    'fa-solid fa-trash-can',
    'el-icon-delete',
    'anticon anticon-delete',
    'bi bi-trash3',
    'mdi mdi-delete-outline',
    'glyphicon glyphicon-trash',
    'icon-bin',
  ]
  it('an icon-only button with a delete icon is destructive', () => {
    fc.assert(
      fc.property(fc.constantFrom(...kIconClasses), fc.constantFrom('', ' ', '\u200B'), (icons, name) => {
        expect(decideRisk({ name, icons })?.category).toBe('destructive')
      }),
      { numRuns: 50 },
    )
    expect(decideRisk({ name: '', icons: 'fa fa-credit-card' })?.category).toBe('payment')
    expect(decideRisk({ name: '💳' })?.category).toBe('payment')
    // An unknown icon alone is not asked about (rule: asking about every toolbar icon teaches "yes").
    expect(decideRisk({ name: '', icons: 'fa fa-star' })).toBeNull()
  })

  it('danger styling asks for anything but a way back; the confirming button of a risky dialog asks, its Cancel does not', () => {
    fc.assert(
      fc.property(fc.constantFrom('Yes', 'OK', 'Proceed', '确定', 'はい', 'Weiter so', ''), (name) => {
        expect(decideRisk({ name, danger: true })?.category).toBe('destructive')
      }),
      { numRuns: 30 },
    )
    expect(decideRisk({ name: 'Cancel', danger: true })).toBeNull()
    const dialog = 'Delete project "Apollo"? All its files will be lost.'
    for (const ok of ['OK', 'Yes', '确定', 'Continue', ''])
      expect(decideRisk({ name: ok, dialog })?.category).toBe('destructive')
    for (const no of ['Cancel', '取消', 'Close', '×', 'キャンセル']) expect(decideRisk({ name: no, dialog })).toBeNull()
    expect(decideRisk({ name: '', icons: 'el-icon-close', dialog })).toBeNull()
    expect(decideRisk({ name: '确定', dialog: '删除后无法恢复，确定继续吗？' })?.category).toBe('destructive')
    expect(decideRisk({ name: 'OK', dialog: 'You are about to send 5 000 € to IBAN DE89…' })?.category).toBe('payment')
    expect(decideRisk({ name: 'Allow', dialog: 'Acme wants to read your mail' })?.category).toBe('permission')
    // A dialog about nothing risky.
    expect(decideRisk({ name: 'OK', dialog: 'Your changes were saved.' })).toBeNull()
  })

  it('a bare OK or icon in a row that says it cannot be undone asks; a price in a link does not', () => {
    expect(decideRisk({ name: 'OK', context: 'Removing this member is permanent.' })?.category).toBe('destructive')
    expect(decideRisk({ name: '', icons: 'fa fa-ellipsis', context: 'Archive · cannot be undone' })?.category).toBe(
      'destructive',
    )
    expect(decideRisk({ name: 'Confirm', context: 'Total: $1,299.00' })?.category).toBe('payment')
    expect(decideRisk({ name: 'Blue sneakers $89', kind: 'link' })).toBeNull()
    expect(decideRisk({ name: 'Next', context: 'Total: $1,299.00' })).toBeNull()
  })

  it('forms: password → credentials, payment fields → payment, data to another origin → data_send', () => {
    expect(decideRisk({ name: 'Log in', form: { password: true } })?.category).toBe('credentials')
    expect(decideRisk({ name: 'Continue', form: { payment: true } })?.category).toBe('payment')
    expect(decideRisk({ name: 'Search', form: { offSite: 'collector.example' } })).toEqual({
      category: 'data_send',
      reason: "sends the form's data to collector.example",
    })
    expect(decideRisk({ name: 'Search', form: {} })).toBeNull()
  })

  it('reports the first category the person asked about, so switching one off does not hide another', () => {
    expect(decideRisk({ name: 'Send $5,000' }, ['data_send'])?.category).toBe('data_send')
    expect(decideRisk({ name: 'Send $5,000' }, ['payment', 'data_send'])?.category).toBe('payment')
    expect(decideRisk({ name: 'Send $5,000' }, ['cross_site'])).toBeNull()
  })
})

describe('folding', () => {
  it('any text folds to a fixed point, and invisible characters never change the result', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40, unit: 'grapheme' }),
        fc.array(fc.tuple(fc.nat(40), fc.constantFrom(...kInvisibles)), { maxLength: 5 }),
        (s, zs) => {
          const chars = [...s]
          for (const [at, z] of zs) chars.splice(Math.min(at, chars.length), 0, z)
          expect(foldText(chars.join(''))).toBe(foldText(s))
          expect(foldText(foldText(s))).toBe(foldText(s))
        },
      ),
      { numRuns: kRuns },
    )
  }, 30_000)
})
