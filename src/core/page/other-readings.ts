/**
 * Two ways people name a control by something other than its name, read here so the semantic
 * rung can try them (src/dom/executor/semantic/index.ts):
 *
 * - **An action on a record.** "remove invoice-0412.pdf", "delete the Laptop stand line",
 *   "吊销“数据同步”这个密钥", "把大红袍加入购物车": the control's own name is only the action (a
 *   Delete in every row); the record it acts on is said as its object. Read as the action in the
 *   record ("Delete" in "Laptop stand").
 * - **A picture for its action.** "the gear icon", "the trash can on the Q3 row", "齿轮图标": the
 *   picture drawn on an icon button, said for what it does (settings, delete), which is what its
 *   label or tooltip says.
 *
 * Pure text, so Node tests read it as the page does.
 */
import { pictureActions } from './icon-meaning'

/** Actions a person does to one record of many: the controls that repeat in every row or card. */
const kRecordVerbs = [
  'delete',
  'remove',
  'edit',
  'revoke',
  'share',
  'download',
  'rename',
  'duplicate',
  'archive',
  'restore',
  'renew',
  'borrow',
  'approve',
  'reject',
  'favorite',
  'favourite',
  'unpin',
  'pin',
  'retry',
  'resend',
  'ship',
  'refund',
]
const kRecordVerbsZh = [
  '重命名',
  '删除',
  '移除',
  '编辑',
  '修改',
  '吊销',
  '撤销',
  '分享',
  '下载',
  '复制',
  '归档',
  '恢复',
  '续借',
  '借阅',
  '批准',
  '拒绝',
  '收藏',
  '置顶',
  '重试',
  '发货',
  '退款',
]
/** "把 X 加入购物车": the 把 construction puts the record before the action. */
const kBaVerbRe = new RegExp(`^把\\s*(.+?)\\s*((?:加入|添加到|放入|移到|移出)\\S+|${kRecordVerbsZh.join('|')})$`, 'u')
const kVerbRe = new RegExp(`^(${kRecordVerbs.join('|')})\\s+(.+)$`, 'i')
const kVerbZhRe = new RegExp(`^(${kRecordVerbsZh.join('|')})\\s*(.+)$`, 'u')
/** "add Dune to cart", "add Dune to my favourites". */
const kAddToRe = /^add\s+(.+?)\s+to\s+(?:the\s+|my\s+)?(cart|basket|bag|favou?rites|wishlist)$/i

/** Words that say where or which, not what: a phrase with them is the scope parser's. */
const kNotARecordRe =
  /(?<![\p{L}])(?:in|inside|within|on|of|under|from|at|for|near|below|above|beside|button|icon|link|field|box|first|second|third|fourth|fifth|last|next|previous|all|every|this|these|those|tag|tags|chip|dialog|modal|popup|drawer|panel|menu|row|table|form|list|toolbar|sidebar|header|footer|alert|notification)(?![\p{L}])|[里中内上下]的|按钮|图标|链接|标签|对话框|弹窗|菜单|表格|表单|列表|第\S|最后|所有|全部|旁边/iu

/** A record's words as said: no quotes, no "the … line", no "这个密钥". */
function recordWords(raw: string): string {
  return (
    raw
      .replace(/["“”「」'‘’]/g, ' ')
      .replace(/^\s*(?:the|this|that|my)\s+/i, '')
      // "ship order 1003", "退款 1002 号订单": a record named by its number shows the number.
      .replace(/^\s*(?:order|invoice|ticket|no\.?|number|#)\s*(?=[\p{L}\p{N}])/iu, '')
      .replace(/^\s*(\d[\w-]*)\s*号?(?:订单|工单|发票)$/u, '$1')
      .replace(/\s+(?:line|row|item|entry|file|record|card|key|one|product|order)\s*$/i, '')
      .replace(/\s*(?:这|那)一?[个条行项张份本件]\S{0,3}$/u, '')
      .replace(/\s*(?:的)?(?:那|这)?一?[行条项]$/u, '')
      .trim()
  )
}

/** The action a descriptor starts with ("remove the Last 7 days filter": remove), or ''. */
export function leadingAction(description: string): string {
  const text = description.trim()
  return (
    kVerbRe.exec(text)?.[1] ?? kVerbZhRe.exec(text)?.[1] ?? /^(close|dismiss|关闭)(?![\p{L}])/iu.exec(text)?.[1] ?? ''
  )
}

/** Actions people say for one another's control: "remove" a row whose button says Delete. */
const kSameActions: ReadonlyArray<readonly string[]> = [
  ['delete', 'remove'],
  ['删除', '移除'],
  ['edit', 'modify'],
  ['编辑', '修改'],
  ['revoke', 'cancel'],
  ['吊销', '撤销'],
  ['favorite', 'favourite', 'like'],
]

/** The action as said, then the ones people say for the same control. */
export function sameActions(action: string): string[] {
  const a = action.toLowerCase()
  return [a, ...(kSameActions.find((group) => group.includes(a))?.filter((b) => b !== a) ?? [])]
}

/** The action and the record it acts on, when the descriptor says one ("remove invoice.pdf"); else null. */
export function actionOnRecord(description: string): { action: string; record: string } | null {
  const text = description.trim().replace(/\s+/g, ' ')
  const add = kAddToRe.exec(text)
  const ba = kBaVerbRe.exec(text)
  const verb = kVerbRe.exec(text) ?? kVerbZhRe.exec(text)
  const [action, rawRecord] = add
    ? [`add to ${add[2]}`, add[1]]
    : ba
      ? [ba[2], ba[1]]
      : verb
        ? [verb[1], verb[2]]
        : ['', '']
  if (!action) return null
  const record = recordWords(rawRecord)
  // "delete the first row", "remove the tag in the dialog", "删除按钮": the parser's own forms.
  if (record.length < 2 || kNotARecordRe.test(record)) return null
  return { action, record }
}

/** Pictures said in words → the action they stand for, English and Chinese; longest first. */
const kPictureWords: ReadonlyArray<[RegExp, string[]]> = (
  [
    ['trash can', 'delete'],
    ['trash bin', 'delete'],
    ['garbage can', 'delete'],
    ['magnifying glass', 'search'],
    ['plus sign', 'add'],
    ['three dots', 'more'],
    ['hamburger', 'menu'],
    ['plus', 'add'],
    ['垃圾桶', '删除'],
    ['齿轮', '设置'],
    ['铅笔', '编辑'],
    ['爱心', '收藏 点赞'],
    ['心形', '收藏 点赞'],
    ['铃铛', '通知'],
    ['放大镜', '搜索'],
    ['加号', '添加 新建'],
    ['三个点', '更多'],
    ...(['heart', 'trash', 'bin', 'pencil', 'gear', 'cog', 'ellipsis', 'kebab', 'magnifier', 'bell'] as const).map(
      (w): [string, string] => [w, pictureActions(w).join(' ')],
    ),
  ] as Array<[string, string]>
).map(([said, actions]) => [
  new RegExp(/^[a-z]/.test(said) ? `(?<![a-z])${said}(?![a-z])` : said, 'i'),
  actions.split(' ').filter(Boolean),
])

/**
 * The descriptor with a picture put as its action, one reading per action ("the heart on Dune" →
 * "the like on Dune", "the favorite on Dune"); none when it names no picture.
 */
export function pictureAsAction(description: string): string[] {
  for (const [re, actions] of kPictureWords) {
    if (!re.test(description)) continue
    return actions.map((a) => description.replace(re, a))
  }
  return []
}
