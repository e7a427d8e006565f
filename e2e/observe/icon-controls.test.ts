// Every control a person could use is listed, on pages written as third-party sites write them
// (e2e/fixtures/pages-nobody-wrote): a feed whose Reply / Retweet / Like / Share are icon-only
// elements with script handlers, named from their icons and marked [guessed]; jQuery UI's real
// autocomplete, whose suggestion menu appears after typing and is listed on the next read; a
// webmail list whose rows are divs with handlers, listed with the star and trash icons inside
// them. A loopback model acts on each, by listed id and by words, in the built extension.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { allowAll, instructionChunks, launchAva, listedOnPage, readSteps, sendAndWait, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startNobodyPages } from '../support/nobody-pages'

let ava: Ava
let llm: LlmServer
let pages: Awaited<ReturnType<typeof startNobodyPages>>

beforeAll(async () => {
  ;[ava, llm, pages] = await Promise.all([launchAva(), startLlmServer(), startNobodyPages()])
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), pages?.close()])
})
beforeEach(() => {
  llm.requests.length = 0
  llm.script()
})

/** What the model was last shown (the newest user message: the page listing and step results). */
const lastPage = (body: any): string => JSON.stringify(body.messages.at(-1))
/** The first listed id matching `re` in what the model was shown, or a word that fails the step. */
const pick = (body: any, re: RegExp): string => re.exec(lastPage(body))?.[0] ?? 'not_listed'
const done = { step_id: 99, action_type: 'done', params: { answer: 'Done.' } }

/** Opens `path` with Ava's panel and lets one run read it; returns what the model was shown. */
async function readPage(page: Page, path: string): Promise<string> {
  await page.goto(pages.url(path))
  llm.script({ chunks: instructionChunks([{ step_id: 1, action_type: 'done', params: { answer: 'Read.' } }]) })
  await sendAndWait(await ava.openPanel(page), 'what is on this page?')
  const chat = llm.requests.filter((r) => r.api === 'openai')
  return lastPage(chat[chat.length - 1].body)
}

/** Runs `request` with the replies scripted, answering any question with Allow; the steps' statuses. */
async function run(page: Page, request: string): Promise<string[]> {
  const panel = await ava.panel(page)
  const running = sendAndWait(panel, request, { timeout: 45_000 })
  await allowAll(page, running, (p) => ava.panel(p))
  await running
  const steps = await readSteps(panel)
  if (process.env.AVA_DEBUG)
    console.log(
      JSON.stringify(steps),
      llm.requests.map((r) => lastPage(r.body).slice(0, 3000)),
    )
  return steps.map((s) => s.status)
}

/** The ids Ava listed for the elements at `selectors`, read from the panel's overlay as a person would. */
const idsOf = async (page: Page, selectors: string[]) =>
  (await listedOnPage(await ava.panel(page), page, selectors)).idOf

it('icon-only feed actions are listed by guessed names and clicked by id and by words', async () => {
  const page = await ava.context.newPage()
  const shown = await readPage(page, '/icon-feed.html')
  // Each post's four icon-only actions are listed, named from their icons and marked as guesses.
  const feedIds = await idsOf(
    page,
    ['101', '102', '103'].flatMap((tweet) =>
      ['Reply', 'Retweet', 'Favorite', 'Share'].map((action) => `[data-tweet-id="${tweet}"] .js-action${action}`),
    ),
  )
  for (const tweet of ['101', '102', '103']) {
    for (const action of ['Reply', 'Retweet', 'Favorite', 'Share']) {
      const id = feedIds[`[data-tweet-id="${tweet}"] .js-action${action}`]
      expect(id, `${action} of ${tweet}`).toMatch(/^btn_/)
      expect(shown).toContain(id!.replace(/_near_\w+$/, ''))
    }
  }
  expect(shown).toMatch(/btn_reply\w*\[guessed\]/)
  expect(shown).toMatch(/btn_retweet\w*\[guessed\]/)
  expect(shown).toMatch(/btn_like_heart\w*\[guessed\]/)

  // By id: the ids the page carries are the ids the model was shown.
  const reply = feedIds['[data-tweet-id="102"] .js-actionReply']
  const retweet = feedIds['[data-tweet-id="103"] .js-actionRetweet']
  const like = feedIds['[data-tweet-id="101"] .js-actionFavorite']
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'click', params: { target_id: reply }, description: 'Reply to Bob' },
      { step_id: 2, action_type: 'click', params: { target_id: retweet }, description: 'Retweet Carol' },
      { step_id: 3, action_type: 'click', params: { target_id: like }, description: 'Like Alice' },
      done,
    ]),
  })
  expect(await run(page, 'reply to bob, retweet carol, like alice')).toEqual(['ok', 'ok', 'ok'])
  expect(await page.textContent('#log')).toBe('reply 102, retweet 103, like 101')

  // By words only: the guessed names and the post's text find them.
  llm.script({
    chunks: instructionChunks([
      {
        step_id: 1,
        action_type: 'click',
        params: { semantic_locator: "the Like button of Bob's post" },
        description: 'Like Bob',
      },
      {
        step_id: 2,
        action_type: 'click',
        params: { semantic_locator: "the share icon on Carol's tweet" },
        description: 'Share Carol',
      },
      done,
    ]),
  })
  expect(await run(page, "like bob's post and share carol's")).toEqual(['ok', 'ok'])
  expect(await page.textContent('#log')).toBe('reply 102, retweet 103, like 101, like 102, share 103')
  await page.close()
})

it('jQuery UI autocomplete: the suggestions that appear after typing are listed on the next read and chosen', async () => {
  const page = await ava.context.newPage()
  const shown = await readPage(page, '/autocomplete.html')
  expect(shown).toMatch(/input_tags/)
  llm.script(
    {
      from: (body) =>
        JSON.stringify([
          {
            step_id: 1,
            action_type: 'input',
            params: { target_id: pick(body, /input_tags\w*/), value: 'ja' },
            description: 'Type ja',
          },
        ]),
    },
    // The model reads the page again: the menu's suggestions are listed now.
    {
      from: (body) =>
        JSON.stringify([
          {
            step_id: 2,
            action_type: 'click',
            params: { target_id: pick(body, /\w+_javascript\w*/) },
            description: 'JavaScript',
          },
        ]),
    },
    { chunks: instructionChunks([done]) },
  )
  expect(await run(page, 'choose JavaScript in Tags')).toEqual(['ok', 'ok'])
  expect(await page.textContent('#chosen')).toBe('JavaScript')
  expect(await page.inputValue('#tags')).toBe('JavaScript')

  // By words: type, then name the suggestion.
  llm.script(
    {
      chunks: instructionChunks([
        {
          step_id: 1,
          action_type: 'input',
          params: { semantic_locator: 'the Tags field', value: 'sc' },
          description: 'Type sc',
        },
      ]),
    },
    {
      chunks: instructionChunks([
        {
          step_id: 2,
          action_type: 'click',
          params: { semantic_locator: 'the "Scheme" suggestion' },
          description: 'Scheme',
        },
        done,
      ]),
    },
  )
  expect(await run(page, 'choose Scheme in Tags')).toEqual(['ok', 'ok'])
  expect(await page.textContent('#chosen')).toBe('Scheme')
  await page.close()
})

it('webmail rows that are divs with handlers are listed beside their star and trash icons', async () => {
  const page = await ava.context.newPage()
  const shown = await readPage(page, '/mail.html')
  const mailIds = await idsOf(page, ['[data-mail=m2]', '[data-mail=m1] .star', '[data-mail=m4] .trash'])
  const row = mailIds['[data-mail=m2]']
  const star = mailIds['[data-mail=m1] .star']
  const trash = mailIds['[data-mail=m4] .trash']
  expect(row, 'the row itself').toMatch(/^btn_/)
  expect(star).toMatch(/^btn_star/)
  expect(trash).toMatch(/^btn_delete_trash/)
  expect(shown).toMatch(/btn_star\w*\[guessed\]/)
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'click', params: { target_id: row }, description: 'Open Doralyn' },
      { step_id: 2, action_type: 'click', params: { target_id: star }, description: 'Star Darryl' },
      { step_id: 3, action_type: 'click', params: { target_id: trash }, description: 'Delete Kim' },
      done,
    ]),
  })
  expect(await run(page, "open doralyn's mail, star darryl's, delete kim's")).toEqual(['ok', 'ok', 'ok'])
  expect(await page.textContent('#reader')).toBe('Opened: m2; starred: m1; deleted: m4')

  await page.close()

  // By words, on the page as it loads (every star still empty), in a tab of its own.
  const fresh = await ava.context.newPage()
  await readPage(fresh, '/mail.html')
  llm.script({
    chunks: instructionChunks([
      {
        step_id: 1,
        action_type: 'click',
        params: { semantic_locator: 'Newsletter Your weekly digest' },
        description: 'Open the newsletter',
      },
      {
        step_id: 2,
        action_type: 'click',
        params: { semantic_locator: "the star in Kim Lee's row" },
        description: 'Star Kim',
      },
      done,
    ]),
  })
  expect(await run(fresh, 'open the newsletter and star kim')).toEqual(['ok', 'ok'])
  expect(await fresh.textContent('#reader')).toBe('Opened: m3; starred: m4; deleted: none')
  await fresh.close()
})
