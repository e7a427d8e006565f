/**
 * What a drawn icon means to a person, in English and Chinese: the one table every reader of an
 * element's words uses (dom/words, the guessed names of dom/words/icons.ts, the semantic rung).
 * A heart is "like", a trash can "delete", a ▾ beside a field opens its list. Pure data, so Node
 * tests and every context can read it.
 *
 * Two keys: the words of an icon's name (a class `fa-trash`, a Material ligature `thumb_up`, an
 * SVG `<use href="#i-archive">`, an image file `reply.png`) and the glyphs drawn as text (`▾`,
 * `★`, `¶`). The values are the words people use for what the control does, the function word
 * first.
 */

/** Icon name words → what people call the control (the first word is the action). */
export const kIconMeaning: Readonly<Record<string, string>> = {
  heart: 'like favorite 点赞 喜欢',
  thumbs: 'like 点赞',
  thumb: 'like 点赞',
  like: 'heart 点赞 喜欢',
  trash: 'delete bin 删除 垃圾桶',
  bin: 'delete trash 删除 垃圾桶',
  delete: 'trash 删除',
  remove: 'delete 删除 移除',
  pencil: 'edit 编辑',
  edit: 'pencil 编辑',
  gear: 'settings 设置',
  cog: 'settings 设置',
  settings: 'gear 设置',
  ellipsis: 'more 更多',
  kebab: 'more 更多',
  dots: 'more 更多',
  more: '更多',
  magnifier: 'search 搜索',
  search: '搜索',
  paperclip: 'attach attachment 附件',
  attach: 'attachment 附件',
  envelope: 'mail e-mail 邮件',
  mail: 'e-mail email 邮件',
  message: 'e-mail mail 消息 邮件',
  bell: 'notifications 通知',
  star: 'favorite rating 星 星标 收藏',
  bookmark: 'save 收藏 书签',
  reply: '回复',
  retweet: 'repost 转发',
  forward: 'next 转发 前进',
  share: '分享',
  bold: '粗体 加粗',
  italic: '斜体',
  underline: '下划线',
  link: '链接',
  archive: '归档',
  refresh: 'reload 刷新',
  reload: 'refresh 刷新',
  sync: 'refresh 同步',
  close: '关闭',
  menu: 'hamburger 菜单',
  hamburger: 'menu 菜单',
  print: '打印',
  download: '下载',
  upload: '上传',
  copy: '复制',
  plus: 'add 添加 增加',
  add: 'plus 添加',
  minus: 'decrease 减少',
  user: '用户',
  home: '首页',
  calendar: 'date 日历 日期',
  filter: '筛选',
  sort: '排序',
  info: '信息',
  help: '帮助',
  caret: 'dropdown toggle 下拉',
  chevron: 'dropdown toggle 下拉',
  arrow: 'dropdown toggle 下拉',
  eye: 'show view 显示 查看',
  lock: '锁定',
  unlock: '解锁',
  camera: 'photo 拍照',
  mic: 'microphone 语音',
  logout: 'log out sign out 退出',
  login: 'log in sign in 登录',
  check: 'done confirm 确认',
  checkmark: 'done confirm 确认',
}

/** Glyphs drawn as a control's only text → what the control does. */
export const kGlyphMeaning: Readonly<Record<string, string>> = {
  '▾': 'dropdown toggle arrow down 下拉',
  '▼': 'dropdown toggle arrow down 下拉',
  '▿': 'dropdown toggle arrow 下拉',
  '⌄': 'dropdown toggle arrow 下拉',
  '⏷': 'dropdown toggle arrow down 下拉',
  '⌵': 'dropdown toggle arrow 下拉',
  '∨': 'dropdown toggle arrow 下拉',
  '▴': 'up arrow increase 增加 向上',
  '▲': 'up arrow increase 增加 向上',
  '⏶': 'up arrow increase 增加 向上',
  '⌃': 'up arrow 向上',
  '+': 'plus add increase 添加 增加',
  '＋': 'plus add increase 添加 增加',
  '➕': 'plus add increase 添加 增加',
  '−': 'minus decrease 减少',
  '-': 'minus decrease 减少',
  '–': 'minus decrease 减少',
  '➖': 'minus decrease 减少',
  '－': 'minus decrease 减少',
  '★': 'star favorite rating 星 收藏',
  '☆': 'star favorite rating 星 收藏',
  '⭐': 'star favorite rating 星 收藏',
  '♥': 'like heart favorite 点赞 喜欢',
  '❤': 'like heart favorite 点赞 喜欢',
  '♡': 'like heart favorite 点赞 喜欢',
  '❤️': 'like heart favorite 点赞 喜欢',
  '✎': 'edit pencil 编辑',
  '✏': 'edit pencil 编辑',
  '✏️': 'edit pencil 编辑',
  '🖉': 'edit pencil 编辑',
  '🗑': 'delete trash 删除',
  '🗑️': 'delete trash 删除',
  '↻': 'refresh reload 刷新',
  '⟳': 'refresh reload 刷新',
  '🔄': 'refresh reload 刷新',
  '⋯': 'more 更多',
  '…': 'more 更多',
  '⋮': 'more 更多',
  '•••': 'more 更多',
  '...': 'more 更多',
  '☰': 'menu 菜单',
  '≡': 'menu 菜单',
  '🔍': 'search 搜索',
  '🔎': 'search 搜索',
  '↩': 'reply 回复',
  '⤺': 'reply 回复',
  '↪': 'forward 转发',
  '⤻': 'forward 转发',
  '›': 'next 下一页',
  '»': 'expand last 展开',
  '→': 'next 下一页',
  '❯': 'next 下一页',
  '▶': 'next play 下一页',
  '▸': 'next expand 下一页',
  '‹': 'previous back 上一页',
  '«': 'collapse first 折叠 收起',
  '←': 'previous back 上一页 返回',
  '❮': 'previous back 上一页',
  '◀': 'previous back 上一页',
  '◂': 'previous back 上一页',
  '¶': 'permalink link anchor 永久链接 链接',
  '✓': 'check done confirm 确认',
  '✔': 'check done confirm 确认',
  '📎': 'attach attachment 附件',
  '⚙': 'settings gear 设置',
  '⚙️': 'settings gear 设置',
  '🔔': 'notifications bell 通知',
  '✉': 'mail e-mail 邮件',
  '📧': 'mail e-mail 邮件',
  '📅': 'calendar date 日历 日期',
  '🖨': 'print 打印',
  '📋': 'copy clipboard 复制',
}

/**
 * Icon names that are a picture, not an action (a heart, a trash can): the listing's guessed name
 * says the action too ("like heart"), so either word finds it. Action names (`delete`, `edit`)
 * are left as they are.
 */
const kPictures = new Set([
  'heart',
  'thumbs',
  'thumb',
  'trash',
  'bin',
  'pencil',
  'gear',
  'cog',
  'ellipsis',
  'kebab',
  'dots',
  'magnifier',
  'paperclip',
  'envelope',
  'bell',
])

/** The actions a picture icon stands for, in English, first the usual one ([] for an action name or an unknown word). */
export function pictureActions(word: string): string[] {
  if (!kPictures.has(word)) return []
  return (kIconMeaning[word] ?? '').split(' ').filter((m) => /^[a-z]/.test(m) && !kPictures.has(m))
}

/** The action a picture icon stands for, one English word ('' for an action name or an unknown word). */
export function pictureAction(word: string): string {
  return pictureActions(word)[0] ?? ''
}

/** The meaning of each icon word, joined ('' when none is known). */
export function iconMeaning(words: string): string {
  const out: string[] = []
  for (const w of words.toLowerCase().split(/[\s_-]+/)) {
    const m = kIconMeaning[w]
    if (m && !out.includes(m)) out.push(m)
  }
  return out.join(' ')
}

/** The meaning of a glyph drawn as a control's whole text ('' when it is no known glyph). */
export function glyphMeaning(text: string): string {
  const t = text.trim()
  return t.length > 0 && t.length <= 3 ? (kGlyphMeaning[t] ?? '') : ''
}
