/**
 * Common interface words in English and Chinese, for a descriptor written in one language on a
 * page in the other (`保存草稿` for a "Save draft" button, `the next page link` for 下一页):
 * issue 20 §2 asks for descriptors "in English and Chinese" on pages nobody wrote for Ava, and
 * people describe a page in their own language. General UI vocabulary (buttons, fields,
 * pagination, forms, tables), not any page's words; the semantic rung tries the translation only
 * when the descriptor as written finds nothing.
 */
const kPairs: Array<[en: string, zh: string]> = [
  ['save', '保存'], ['draft', '草稿'], ['submit', '提交'], ['cancel', '取消'], ['confirm', '确认'], ['ok', '确定'],
  ['delete', '删除'], ['remove', '移除'], ['edit', '编辑'], ['modify', '修改'], ['add', '添加'], ['new', '新建'], ['create', '创建'],
  ['search', '搜索'], ['query', '查询'], ['reset', '重置'], ['clear', '清空'], ['refresh', '刷新'], ['reload', '重新加载'],
  ['export', '导出'], ['import', '导入'], ['upload', '上传'], ['download', '下载'], ['print', '打印'], ['share', '分享'], ['copy', '复制'],
  ['close', '关闭'], ['open', '打开'], ['expand', '展开'], ['collapse', '折叠'], ['collapse', '收起'], ['more', '更多'], ['details', '详情'], ['detail', '详情'],
  ['view', '查看'], ['preview', '预览'], ['back', '返回'], ['return', '返回'], ['home', '首页'], ['settings', '设置'], ['help', '帮助'],
  ['login', '登录'], ['log in', '登录'], ['sign in', '登录'], ['logout', '退出'], ['log out', '退出登录'], ['sign up', '注册'], ['register', '注册'],
  ['username', '用户名'], ['user', '用户'], ['password', '密码'], ['email', '邮箱'], ['mail', '邮件'], ['phone', '手机号'], ['phone number', '手机号'],
  ['mobile', '手机'], ['address', '地址'], ['name', '名称'], ['full name', '姓名'], ['title', '标题'], ['description', '描述'], ['remark', '备注'],
  ['notes', '备注'], ['note', '备注'], ['comment', '评论'], ['reply', '回复'], ['like', '点赞'], ['message', '消息'], ['notification', '通知'],
  ['category', '分类'], ['type', '类型'], ['method', '方式'], ['status', '状态'], ['date', '日期'], ['time', '时间'], ['start', '开始'], ['end', '结束'],
  ['quantity', '数量'], ['amount', '金额'], ['price', '价格'], ['total', '合计'], ['count', '数量'], ['order', '订单'], ['customer', '客户'],
  ['product', '商品'], ['invoice', '发票'], ['payment', '支付'], ['pay', '支付'], ['shipping', '配送'], ['delivery', '配送'], ['cart', '购物车'],
  ['city', '城市'], ['region', '地区'], ['country', '国家'], ['department', '部门'], ['role', '角色'], ['owner', '负责人'], ['member', '成员'],
  ['members', '成员'], ['team', '团队'], ['project', '项目'], ['keyword', '关键词'], ['tag', '标签'], ['tags', '标签'], ['priority', '优先级'],
  // A pager's "Next" is 下一页 in Chinese; "page" alone is 页.
  // Whole phrases first: 下一页 reads back as "next page", not the "next" of "Next 5 pages".
  ['next page', '下一页'], ['previous page', '上一页'], ['next', '下一页'], ['previous', '上一页'], ['prev', '上一页'], ['page', '页'],
  ['first', '第一'], ['last', '最后'], ['all', '全部'], ['select all', '全选'], ['mark all as read', '全部已读'], ['read', '已读'],
  ['unread', '未读'], ['invite', '邀请'], ['assign', '分配'], ['approve', '通过'], ['reject', '拒绝'], ['send', '发送'], ['apply', '应用'],
  ['filter', '筛选'], ['sort', '排序'], ['history', '记录'], ['log', '日志'], ['record', '记录'], ['records', '记录'], ['profile', '个人资料'],
  ['account', '账户'], ['security', '安全'], ['privacy', '隐私'], ['private', '私有'], ['public', '公开'], ['enable', '启用'], ['disable', '禁用'],
  ['upgrade', '升级'], ['renew', '续费'], ['batch', '批量'], ['bulk', '批量'], ['operation', '操作'], ['actions', '操作'], ['action', '操作'], ['overview', '概览'],
  ['statistics', '统计'], ['stats', '统计'], ['report', '报表'], ['dashboard', '仪表盘'], ['table of contents', '目录'], ['contents', '目录'],
  ['index', '索引'], ['chapter', '章'], ['previous chapter', '上一章'], ['next chapter', '下一章'], ['copyright', '版权'], ['sidebar', '侧边栏'],
  ['quick search', '快速搜索'], ['go', '前往'], ['go to', '前往'], ['estimate', '预估'], ['hours', '小时'], ['scope', '范围'], ['impact', '影响'],
  ['merge', '合并'], ['ticket', '工单'], ['tickets', '工单'], ['related', '关联'], ['gift wrap', '礼品包装'], ['express', '加急'], ['terms', '条款'],
  ['agree', '同意'], ['remember me', '记住我'], ['forgot password', '忘记密码'], ['birthday', '生日'], ['gender', '性别'], ['age', '年龄'],
  ['bio', '个人简介'], ['due date', '截止日期'], ['deadline', '截止日期'], ['about', '关于'], ['company', '公司'], ['consignee', '收货人'], ['recipient', '收件人'], ['zip code', '邮编'],
  // Bookings, bug trackers and editors: phrases before their words (存为草稿 is "save as draft", not "save" and "draft").
  ['check-in', '入住'], ['check-out', '退房'], ['check in', '入住'], ['check out', '退房'], ['report a bug', '报告错误'], ['save as draft', '存为草稿'],
  ['volume', '音量'], ['event', '活动'], ['cv', '简历'], ['resume', '简历'], ['decrease', '减少'], ['increase', '增加'],
  ['rating', '评分'], ['star', '星'], ['color', '颜色'], ['colour', '颜色'], ['submenu', '子菜单'], ['logo', '标志'], ['slider', '滑块'], ['handle', '手柄'],
  ['signature', '签名'], ['calendar', '日历'], ['date of birth', '出生日期'], ['birth', '出生'], ['editor', '编辑器'], ['attachment', '附件'], ['subject', '主题'], ['year', '年份'], ['month', '月份'],
]

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const byLength = (a: string, b: string) => b.length - a.length
const kEnToZh = new Map(kPairs.map(([en, zh]) => [en, zh]))
/** Every English word for a Chinese one, in the order listed (下一页: "next page", then "next"). */
const kZhToEn = new Map<string, string[]>()
for (const [en, zh] of kPairs) kZhToEn.set(zh, [...(kZhToEn.get(zh) ?? []), en])
// ASCII boundaries, no `u`: the English words are ASCII, and V8's first runs of a big `\p{L}`
// `iu` alternation cost milliseconds each, on every page's first locate (descriptor.ts wordsRe).
const kEnRe = new RegExp(`(?<![A-Za-z0-9])(?:${[...kEnToZh.keys()].sort(byLength).map(escape).join('|')})(?![A-Za-z0-9])`, 'gi')
const kZhRe = new RegExp([...kZhToEn.keys()].sort(byLength).map(escape).join('|'), 'g')

/**
 * The descriptor with its interface words put in the other language: Chinese words in English,
 * and English words in Chinese (a descriptor may mix both: `Delete in the row of 王芳`). Role
 * words, quotes and scope words are left as they are: the parser reads both languages.
 */
export function translateDescriptor(text: string): string[] {
  const out: string[] = []
  // The first English word for each, then the second where a word has one (a pager's 下一页 is
  // "Next page" on one page and only "Next" on another).
  for (const choice of [0, 1]) {
    let other = false
    const toEn = text.replace(kZhRe, (w) => {
      const ens = kZhToEn.get(w)!
      if (ens[choice]) other ||= choice > 0
      return ` ${ens[choice] ?? ens[0]} `
    })
    if (toEn !== text && (choice === 0 || other)) out.push(toEn.replace(/\s+/g, ' ').trim())
  }
  const toZh = text.replace(kEnRe, (w) => ` ${kEnToZh.get(w.toLowerCase())} `)
  if (toZh !== text) out.push(toZh.replace(/\s+/g, ' ').trim())
  return out
}
