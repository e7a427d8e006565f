import { describe, expect, it } from 'vitest'
import { checkAnswer, namesIn } from '../../../src/core/answer/grounding'

const listing = [
  'Find the price of the Aurora Kettle',
  '### list g1 "Products": 3 rows; in a row "1: btn_buy_" means btn_buy_near_1\nkettle: link_aurora_kettle btn_buy_ "Aurora Kettle $1,299.00 ★4.5"\n',
]

describe('an answer checked against what the run read', () => {
  it('flags a number read nowhere and passes one read in another form', () => {
    const r = checkAnswer('The Aurora Kettle costs 1299 dollars and 3,400 were sold.', [], { texts: listing })
    expect(r.unread).toEqual([{ kind: 'number', text: '3,400' }])
  })

  it('compares Chinese numerals and full-width digits with the digits read', () => {
    const texts = ['价格：￥1,299；库存 12 件']
    expect(checkAnswer('价格一千二百九十九元，库存十二件。', [], { texts }).unread).toEqual([])
    expect(checkAnswer('价格１２９９元，已售三千四百件。', [], { texts }).unread).toEqual([
      { kind: 'number', text: '三千四百' },
    ])
  })

  it('flags a proper name read nowhere, not a sentence opening', () => {
    const r = checkAnswer('Sure. The best one is the Aurora Kettle, made by Borealis Labs.', [], { texts: listing })
    expect(r.unread).toEqual([{ kind: 'name', text: 'Borealis Labs' }])
    expect(namesIn('Yes. It ships from Oslo.')).toEqual(['Oslo'])
  })

  it('does not count markdown list numbers as numbers of the answer', () => {
    expect(checkAnswer('1. Aurora Kettle\n2. costs $1,299', [], { texts: listing }).unread).toEqual([])
  })

  it('marks each claim by whether its sources were read', () => {
    const r = checkAnswer(
      'x',
      [
        { text: 'It costs $1,299.', sources: ['btn_buy_near_kettle'] },
        { text: 'It is the top seller.', sources: [] },
        { text: 'It has 4.5 stars.', sources: ['link_made_up'] },
        { text: 'Posted by Ana.', sources: ['2.3', '2.9'] },
        { text: 'The mug is ¥20.', sources: ['btn_save_near_20'] },
      ],
      {
        texts: [
          ...listing,
          '## main; in a line "20: btn_add_to_cart_" means btn_add_to_cart_near_20\n20 "Blue mug ¥20": btn_add_to_cart_ btn_save_',
        ],
        items: new Map([[2, 5]]),
      },
    )
    expect(r.claims.map((c) => c.status)).toEqual(['sourced', 'unsourced', 'unknown', 'sourced', 'sourced'])
    expect(r.claims[3].sources).toEqual([
      { ref: '2.3', kind: 'item', read: true },
      { ref: '2.9', kind: 'item', read: false },
    ])
  })
})
