/**
 * Generated pages for the Observe bench and tests: order tables, synthetic pages of a given
 * element count, and an Element Plus admin page (served with the vendor builds of e2e/observe/server.ts).
 */

const kCustomers = ['Alice Smith', 'Bob Chen', '王芳', 'Carlos Diaz', '李雷', 'Dana White', 'Eve Martin', '张伟']
const kStatuses = ['pending', 'shipped', 'delivered', 'cancelled']

function shell(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`
}

/** One order row: link, text, select, two buttons, checkbox (the order table). */
export function orderRow(i: number): string {
  const status = kStatuses[i % kStatuses.length]
  const options = kStatuses.map((s) => `<option${s === status ? ' selected' : ''}>${s}</option>`).join('')
  return (
    `<tr><td><a href="/orders/${i}">Order ${i}</a></td><td>${kCustomers[i % kCustomers.length]}</td>` +
    `<td><select>${options}</select></td><td><button type="button">Edit</button> <button type="button">Delete</button></td>` +
    `<td><input type="checkbox"></td></tr>`
  )
}

export function tableRows(rows: number): string {
  let out = ''
  for (let i = 1; i <= rows; i++) out += orderRow(i)
  return out
}

export function tablePage(rows: number): string {
  return shell(
    `Orders (${rows})`,
    `<header><nav aria-label="Main"><a href="/">Home</a> <a href="/orders">Orders</a> <a href="/customers">Customers</a> <a href="/settings">Settings</a></nav>` +
      `<form role="search"><input type="search" name="q" placeholder="Search orders"><button>Search</button></form></header>` +
      `<main><h1>Orders</h1><table><caption>Orders</caption><thead><tr><th>Order</th><th>Customer</th><th>Status</th><th>Actions</th><th>Select</th></tr></thead>` +
      `<tbody>${tableRows(rows)}</tbody></table></main><footer><a href="/help">Help</a> <a href="/privacy">Privacy</a></footer>`,
  )
}

/**
 * A page of about `elements` elements shaped like a content site: header, navigation, cards with
 * headings, paragraphs, link lists, buttons and a clickable `cursor: pointer` div; about one
 * element in seven is interactable.
 */
export function syntheticPage(elements: number): string {
  const head = `<style>.card{border:1px solid #ddd;margin:8px;padding:8px}.more{cursor:pointer;color:#06c}.hidden{display:none}</style>`
  let body = '<header><nav>'
  for (let i = 0; i < 8; i++) body += `<a href="/section/${i}">Section ${i}</a> `
  body += '</nav></header><main>'
  // Each card below is 16 elements (counted by hand from the markup).
  const perCard = 16
  const cards = Math.max(1, Math.round((elements - 20) / perCard))
  for (let i = 0; i < cards; i++) {
    body +=
      `<div class="card c${i % 7}"><h3>Item ${i}</h3><p>Some text about item ${i} with <b>bold</b> and <span>detail ${i}</span>.</p>` +
      `<ul><li><a href="/item/${i}">Open item ${i}</a></li><li><span>tag ${i % 13}</span></li></ul>` +
      `<div class="actions"><button>Buy</button><div class="more">More</div></div>` +
      `<div class="hidden"><button>Hidden</button></div><div><span><i>meta</i></span></div></div>`
  }
  body += '</main><footer><a href="/about">About</a></footer>'
  return shell(`Synthetic ${elements}`, body, head)
}

/** An admin page built from Element Plus 2 components (served at /vendor/* by the fixture server). */
export function elementPlusPage(): string {
  const head = `<link rel="stylesheet" href="/vendor/element-plus.css"><script src="/vendor/vue.js"></script><script src="/vendor/element-plus.js"></script>`
  const body = `<div id="app"></div><script>
const { createApp, ref, reactive } = Vue
const rows = []
for (let i = 1; i <= 100; i++) rows.push({ id: 1000 + i, name: ['Tom', 'Jerry', '王小明', 'Lucy'][i % 4] + ' ' + i, city: ['Shanghai', 'Beijing', 'Los Angeles'][i % 3], status: i % 3 === 0 ? 'disabled' : 'active' })
createApp({
  setup() {
    const form = reactive({ name: '', region: '', date: '', delivery: false, type: [], resource: '', desc: '' })
    return { rows, form, dialog: ref(true), page: ref(1), tab: ref('users'), search: ref('') }
  },
  template: \`
  <el-container>
    <el-header><el-menu mode="horizontal" :default-active="'1'"><el-menu-item index="1">控制台</el-menu-item><el-menu-item index="2">用户管理</el-menu-item><el-sub-menu index="3"><template #title>系统设置</template><el-menu-item index="3-1">角色</el-menu-item></el-sub-menu></el-menu></el-header>
    <el-container>
      <el-aside width="200px"><el-menu default-active="2-1"><el-menu-item index="2-1">Dashboard</el-menu-item><el-menu-item index="2-2">Orders</el-menu-item><el-menu-item index="2-3">Reports</el-menu-item></el-menu></el-aside>
      <el-main>
        <el-tabs v-model="tab"><el-tab-pane label="Users" name="users"></el-tab-pane><el-tab-pane label="Roles" name="roles"></el-tab-pane></el-tabs>
        <el-form :model="form" label-width="100px" style="max-width: 600px">
          <el-form-item label="Activity name"><el-input v-model="form.name" placeholder="Name" /></el-form-item>
          <el-form-item label="Region"><el-select v-model="form.region" placeholder="Select a region"><el-option label="Zone one" value="1" /><el-option label="Zone two" value="2" /></el-select></el-form-item>
          <el-form-item label="Date"><el-date-picker v-model="form.date" type="date" placeholder="Pick a date" /></el-form-item>
          <el-form-item label="Instant delivery"><el-switch v-model="form.delivery" /></el-form-item>
          <el-form-item label="Type"><el-checkbox-group v-model="form.type"><el-checkbox value="online" name="type">Online</el-checkbox><el-checkbox value="offline" name="type">Offline</el-checkbox></el-checkbox-group></el-form-item>
          <el-form-item label="Resources"><el-radio-group v-model="form.resource"><el-radio value="sponsor">Sponsor</el-radio><el-radio value="venue">Venue</el-radio></el-radio-group></el-form-item>
          <el-form-item label="Description"><el-input v-model="form.desc" type="textarea" /></el-form-item>
          <el-form-item><el-button type="primary">Create</el-button><el-button>Cancel</el-button></el-form-item>
        </el-form>
        <el-input v-model="search" placeholder="搜索用户" style="width: 240px" />
        <el-table :data="rows" style="width: 100%">
          <el-table-column type="selection" width="55" />
          <el-table-column prop="id" label="ID" width="80" />
          <el-table-column prop="name" label="Name" />
          <el-table-column prop="city" label="City" />
          <el-table-column label="Status"><template #default="s"><el-tag>{{ s.row.status }}</el-tag></template></el-table-column>
          <el-table-column label="Operations"><template #default="s"><el-button size="small">编辑</el-button><el-button size="small" type="danger">删除</el-button></template></el-table-column>
        </el-table>
        <el-pagination layout="prev, pager, next" :total="1000" v-model:current-page="page" />
        <el-dialog v-model="dialog" title="确认操作" width="400"><span>确定要继续吗？</span><template #footer><el-button @click="dialog = false">取消</el-button><el-button type="primary" @click="dialog = false">确定</el-button></template></el-dialog>
      </el-main>
    </el-container>
  </el-container>\`,
}).use(ElementPlus).mount('#app')
</script>`
  return shell('Admin — Element Plus', body, head)
}
