import { foldText, kUnspaced } from './text'

/**
 * The words that carry a step's meaning, in the ten languages Ava is most used with.
 * One signal among several (src/core/risk/decide.ts): icons, danger styling, the dialog and the
 * form speak too. Words are compared after `foldText` on both sides, so write them plainly (case,
 * accents and width do not matter). A trailing `*` matches any ending ("delet*": delete,
 * deleted, deletion); other words of spaced scripts must stand alone, so "pay" is not "paypal".
 * Han, kana and Hangul words match anywhere.
 */
export const LANGS = ['en', 'zh', 'de', 'fr', 'es', 'it', 'pt', 'ja', 'ko', 'ru'] as const
export type Lang = (typeof LANGS)[number]

/** What a label can mean: the four risky kinds a click can carry, and the words that shape a decision. */
export type Meaning =
  'destructive' | 'payment' | 'permission' | 'data_send' | 'negative' | 'affirmative' | 'irreversible' | 'submit'

export const LEXICON: Record<Meaning, Record<Lang, string[]>> = {
  destructive: {
    en: [
      'delet*',
      'remov*',
      'eras*',
      'destroy*',
      'wipe*',
      'discard*',
      'purge*',
      'trash*',
      'move to bin',
      'empty bin',
      'drop',
      'clear all',
      'clear history',
      'clear data',
      'unsubscrib*',
      'uninstall*',
      'deactivat*',
      'terminat*',
      'revok*',
      'close account',
      'close my account',
      'cancel account',
      'cancel my account',
      'cancel subscription',
      'cancel my subscription',
      'cancel order',
      'cancel my order',
      'factory reset',
    ],
    zh: [
      '删除',
      '刪除',
      '删掉',
      '移除',
      '清空',
      '清除',
      '注销',
      '註銷',
      '销毁',
      '銷毀',
      '擦除',
      '抹除',
      '丢弃',
      '丟棄',
      '回收站',
      '退订',
      '取消订阅',
      '卸载',
      '解绑',
      '恢复出厂',
    ],
    de: [
      'loschen',
      'losche',
      'loscht',
      'entfern*',
      'verwerf*',
      'vernicht*',
      'papierkorb',
      'leeren',
      'kundigen',
      'abbestellen',
      'deinstallieren',
      'konto schliessen',
    ],
    fr: [
      'supprim*',
      'effac*',
      'detrui*',
      'corbeille',
      'vider',
      'jeter',
      'desabonn*',
      'se desabonner',
      'desinscri*',
      'resilier',
      'retirer',
    ],
    es: [
      'elimin*',
      'borra*',
      'borre',
      'suprim*',
      'papelera',
      'vaciar',
      'descart*',
      'quitar',
      'dar de baja',
      'darse de baja',
      'cancelar suscripcion',
      'cancelar cuenta',
    ],
    it: ['cancella', 'cancellare', 'rimuov*', 'svuota', 'cestino', 'scarta', 'annulla iscrizione', 'disiscriv*'],
    pt: ['excluir', 'exclua', 'apagar', 'apague', 'lixeira', 'esvaziar', 'cancelar inscricao', 'cancelar assinatura'],
    ja: [
      '削除',
      '消去',
      '除去',
      '破棄',
      'ゴミ箱',
      '空にする',
      '退会',
      '解約',
      '登録解除',
      '初期化',
      'アンインストール',
      '抹消',
    ],
    ko: ['삭제', '제거', '지우기', '휴지통', '비우기', '폐기', '탈퇴', '구독 취소', '구독취소', '초기화'],
    ru: ['удал*', 'стереть', 'сотри', 'очист*', 'уничтож*', 'отпис*', 'выбросить'],
  },
  payment: {
    en: [
      'pay',
      'pay now',
      'payment*',
      'purchas*',
      'buy',
      'buy now',
      'checkout',
      'check out',
      'transfer*',
      'send money',
      'place order',
      'place your order',
      'order now',
      'confirm order',
      'complete order',
      'subscribe',
      'donat*',
      'withdraw*',
      'top up',
      'add funds',
    ],
    zh: [
      '支付',
      '付款',
      '购买',
      '購買',
      '转账',
      '轉帳',
      '下单',
      '结算',
      '結帳',
      '充值',
      '提现',
      '提現',
      '捐赠',
      '捐款',
      '打赏',
      '汇款',
      '匯款',
      '买单',
    ],
    de: [
      'bezahl*',
      'zahlen',
      'zahlung*',
      'kaufen',
      'kaufe',
      'jetzt kaufen',
      'zahlungspflichtig bestellen',
      'uberweis*',
      'spenden',
      'abheben',
      'zur kasse',
    ],
    fr: [
      'payer',
      'payez',
      'paiement',
      'acheter',
      'achetez',
      'commander',
      'passer la commande',
      'virement',
      'faire un don',
      'retrait',
      'regler',
    ],
    es: [
      'pagar',
      'pague',
      'comprar',
      'compre',
      'transferir',
      'transferencia',
      'donar',
      'retirar',
      'realizar pedido',
      'tramitar pedido',
      'finalizar compra',
    ],
    it: [
      'paga',
      'pagare',
      'pagamento',
      'acquista',
      'acquistare',
      'compra',
      'bonifico',
      'dona',
      'donare',
      'preleva',
      'procedi all acquisto',
      'procedi al pagamento',
    ],
    pt: ['pagar', 'pague', 'pagamento', 'comprar', 'compre', 'doar', 'sacar', 'finalizar compra', 'finalizar pedido'],
    ja: [
      '支払',
      '支払い',
      'お支払い',
      '購入',
      '決済',
      '送金',
      '振込',
      '振り込み',
      '寄付',
      '注文を確定',
      '注文する',
      '出金',
      'チャージ',
      '課金',
    ],
    ko: ['결제', '구매', '구입', '송금', '이체', '기부', '출금', '주문하기', '충전'],
    ru: [
      'оплат*',
      'купить',
      'купите',
      'перевести деньги',
      'отправить деньги',
      'пожертвовать',
      'вывести',
      'оформить заказ',
      'пополнить',
    ],
  },
  permission: {
    en: [
      'grant*',
      'authoriz*',
      'authoris*',
      'allow',
      'allow access',
      'give access',
      'share access',
      'make admin',
      'make owner',
      'transfer ownership',
    ],
    zh: ['授权', '授權', '允许', '允許', '授予', '设为管理员', '設為管理員'],
    de: ['autorisier*', 'gewahren', 'erlauben', 'zulassen', 'berechtig*'],
    fr: ['autoris*', 'accorder', 'donner acces', 'permettre'],
    es: ['autoriz*', 'conceder', 'otorgar', 'permitir'],
    it: ['autorizz*', 'concedi', 'concedere', 'consenti', 'consentire'],
    pt: ['autoriz*', 'conceder', 'permitir'],
    ja: ['許可', '承認', '認可', '権限を付与'],
    ko: ['허용', '승인', '권한 부여', '권한부여'],
    ru: ['разреш*', 'предоставить доступ', 'авториз*'],
  },
  data_send: {
    en: ['send', 'share', 'publish', 'forward', 'upload', 'post'],
    zh: ['发送', '發送', '分享', '发布', '發佈', '上传', '上傳', '转发', '轉發'],
    de: ['senden', 'absenden', 'verschicken', 'teilen', 'veroffentlichen', 'hochladen', 'weiterleiten'],
    fr: ['envoyer', 'envoyez', 'partager', 'publier', 'televerser'],
    es: ['enviar', 'compartir', 'publicar', 'subir', 'reenviar'],
    it: ['invia', 'inviare', 'condividi', 'pubblica', 'carica', 'inoltra'],
    pt: ['enviar', 'compartilhar', 'publicar', 'carregar', 'encaminhar'],
    ja: ['送信', '共有', '投稿', 'アップロード', '転送'],
    ko: ['보내기', '전송', '공유', '게시', '업로드'],
    ru: ['отправить', 'поделиться', 'опубликовать', 'загрузить', 'переслать'],
  },
  /** Buttons that back out: never the risky one of a dialog. */
  negative: {
    en: ['cancel', 'close', 'no', 'dismiss', 'back', 'go back', 'not now', 'keep', 'never mind', '×', '✕', '✖', '╳'],
    zh: ['取消', '关闭', '關閉', '否', '返回', '不用了'],
    de: ['abbrechen', 'schliessen', 'nein', 'zuruck'],
    fr: ['annuler', 'fermer', 'non', 'retour'],
    es: ['cancelar', 'cerrar', 'no', 'volver'],
    it: ['annulla', 'chiudi', 'no', 'indietro'],
    pt: ['cancelar', 'fechar', 'nao', 'voltar'],
    ja: ['キャンセル', '閉じる', 'いいえ', '戻る'],
    ko: ['취소', '닫기', '아니요', '돌아가기'],
    ru: ['отмена', 'отменить', 'закрыть', 'нет', 'назад'],
  },
  /** Buttons that only say yes: they mean what the text around them says. */
  affirmative: {
    en: ['ok', 'okay', 'yes', 'confirm', 'proceed', 'i m sure', 'i am sure', 'i understand', 'do it', 'yes i m sure'],
    zh: ['确定', '确认', '確定', '確認', '是', '好的'],
    de: ['ja', 'bestatigen', 'ok'],
    fr: ['oui', 'confirmer'],
    es: ['si', 'confirmar', 'aceptar'],
    it: ['si', 'conferma', 'confermare'],
    pt: ['sim', 'confirmar'],
    ja: ['はい', '確認', '確定', '実行'],
    ko: ['예', '네', '확인'],
    ru: ['да', 'подтвердить', 'ок'],
  },
  /** What a page says around a step that cannot be taken back. */
  irreversible: {
    en: [
      'permanent*',
      'cannot be undone',
      'can t be undone',
      'can not be undone',
      'irreversibl*',
      'will be deleted',
      'will be lost',
      'cannot be recovered',
    ],
    zh: ['无法恢复', '無法恢復', '不可恢复', '不可撤销', '无法撤销', '永久'],
    de: ['unwiderruflich', 'endgultig', 'nicht ruckgangig'],
    fr: ['definitivement', 'irreversible', 'ne peut pas etre annule'],
    es: ['permanentemente', 'no se puede deshacer', 'irreversible'],
    it: ['definitivamente', 'irreversibile', 'non puo essere annullat*'],
    pt: ['permanentemente', 'definitivamente', 'nao pode ser desfeit*'],
    ja: ['元に戻せません', '取り消せません', '完全に削除', '復元できません'],
    ko: ['영구', '되돌릴 수 없', '복구할 수 없'],
    ru: ['безвозвратно', 'навсегда', 'нельзя отменить'],
  },
  /** Labels of plain buttons that submit their form by script (component libraries). */
  submit: {
    en: ['submit', 'log in', 'login', 'sign in', 'signin', 'sign up', 'continue'],
    zh: ['登录', '登入', '提交', '注册'],
    de: ['anmelden', 'einloggen', 'absenden'],
    fr: ['connexion', 'se connecter', 'valider'],
    es: ['iniciar sesion', 'entrar', 'acceder'],
    it: ['accedi', 'invia'],
    pt: ['entrar', 'acessar'],
    ja: ['ログイン', 'サインイン', '送信'],
    ko: ['로그인', '제출'],
    ru: ['войти', 'вход'],
  },
}

/**
 * Icon hints, matched against icon-font class names (`fa-trash-can`, `el-icon-delete`,
 * `anticon-delete`, `bi-trash3`), `data-icon`, `<use href="#…">` and image file names, with the
 * English words of the lexicon besides; emoji are matched in the label itself.
 */
export const ICON_WORDS: Partial<Record<Meaning, string[]>> = {
  destructive: ['trash*', 'bin', 'garbage', 'wastebasket', 'recycle bin', 'eraser', 'delete*', '🗑', '🚮', '❌'],
  payment: ['credit card', 'creditcard', 'wallet', 'money*', 'cash', 'coins', '💳', '💰', '💸', '💵', '💶', '💷', '💴'],
  permission: ['unlock*', 'lock open', 'user shield', '🔓'],
  data_send: ['paper plane', 'send*', 'upload*', 'outbox', '📤', '📨'],
  /** A close icon backs out of a dialog, whatever the dialog is about. */
  negative: ['close*', 'times', 'xmark', 'x'],
}

export interface Matcher {
  /** Every word of the list found in already folded text. */
  test(folded: string): boolean
  /** The first word found, as written in the text, for the reason shown to the person. */
  find(folded: string): string | null
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Letters and digits: a word of a spaced script stands between characters that are neither. */
const kNotWord = /[^\p{L}\p{N}]+/u

/** The text as words of spaced scripts, one space apart and padded: " move to bin ". */
function wordsOf(folded: string): string {
  return ` ${folded.split(kNotWord).filter(Boolean).join(' ')} `
}

/**
 * One matcher per list, built from our own lexicon (never from page text): plain substring
 * searches, so its cost is linear in the text for each word, and nothing is compiled per page
 * (a RegExp alternation of a thousand look-arounds took ~10 ms to build in every page, in the
 * benches). Words of spaced scripts must stand alone ("pay" is not "paypal"); a trailing `*`
 * matches any ending; Han, kana, Hangul and symbols match anywhere.
 */
export function compileWords(words: readonly string[]): Matcher {
  const anywhere: string[] = []
  const whole: string[] = []
  const prefixes: string[] = []
  // Folded on first use: most pages Ava reads never have a step judged, and folding the whole
  // lexicon is the part of this module that costs.
  let built = false
  const build = () => {
    built = true
    for (const w of new Set(words)) {
      const prefix = w.endsWith('*')
      const folded = foldText(prefix ? w.slice(0, -1) : w)
      if (!folded) continue
      if (kUnspaced.test(folded) || !/[\p{L}\p{N}]/u.test(folded)) anywhere.push(folded)
      else (prefix ? prefixes : whole).push(wordsOf(folded).slice(0, prefix ? -1 : undefined))
    }
  }
  const find = (folded: string): string | null => {
    if (!built) build()
    for (const w of anywhere) if (folded.includes(w)) return w
    const text = wordsOf(folded)
    for (const w of whole) if (text.includes(w)) return w.trim()
    for (const p of prefixes) {
      const at = text.indexOf(p)
      if (at >= 0) return text.slice(at + 1, text.indexOf(' ', at + p.length))
    }
    return null
  }
  return { test: (folded) => find(folded) !== null, find }
}

const allLangs = (m: Meaning) => LANGS.flatMap((l) => LEXICON[m][l])

/** The lexicon compiled: one matcher per meaning over all languages (a label rarely says its language). */
export const kWords: Record<Meaning, Matcher> = Object.fromEntries(
  (Object.keys(LEXICON) as Meaning[]).map((m) => [
    m,
    compileWords([...allLangs(m), ...(ICON_WORDS[m] ?? []).filter((w) => !/\p{L}/u.test(w))]),
  ]),
) as Record<Meaning, Matcher>

/** Icon hints: the icon words of each meaning plus its English lexicon. */
export const kIconWords: Partial<Record<Meaning, Matcher>> = Object.fromEntries(
  (Object.keys(ICON_WORDS) as Meaning[]).map((m) => [m, compileWords([...(ICON_WORDS[m] ?? []), ...LEXICON[m].en])]),
)

/**
 * An amount of money: a currency sign or code next to digits, either way round ("$5,000",
 * "5 000 €", "USD 20", "100元"), in folded text (where "5,000" reads "5 000"). Text reaching it is capped in length.
 */
const kCurrencyCode = `(?<![\\p{L}])(?:usd|eur|gbp|cny|rmb|jpy|krw|rub|chf|${escape(foldText('руб'))})(?![\\p{L}])`
export const kAmount = new RegExp(
  `(?:[$€£¥₩₽₹]|${kCurrencyCode}) ?\\d|\\d[\\d ]*(?:[$€£¥₩₽₹元円원]|${kCurrencyCode})`,
  'u',
)
