/**
 * Accessible-name cases after the W3C accname suite's expectations (web-platform-tests
 * `accname/name/comp_*.html`: hidden not referenced, labelledby and hidden nodes, embedded
 * control, host language label, name from content, text node, tooltip), written for Ava's one
 * name module (src/dom/words/accname.ts). The element named is the one marked `data-m="x"`.
 * `css` cases need a real style engine (stylesheets, generated content): they run in Chromium
 * (e2e/observe/accname.test.ts); the others run in happy-dom too (test/dom/observe/accname.test.ts).
 */
export interface NameCase {
  step: string
  what: string
  html: string
  name: string
  css?: boolean
}

export const kNameCases: NameCase[] = [
  // 2A: hidden and not referenced.
  {
    step: '2A',
    what: 'aria-hidden and hidden parts are left out',
    html: '<button data-m="x"><span aria-hidden="true">hidden,</span> <span hidden>not shown,</span> <span>shown</span></button>',
    name: 'shown',
  },
  {
    step: '2A',
    what: 'an aria-hidden close glyph',
    html: '<button data-m="x"><span aria-hidden="true">×</span> Close</button>',
    name: 'Close',
  },
  {
    step: '2A',
    what: 'style, script, template and noscript are never text',
    html: '<button data-m="x"><style>.a{color:red}</style><script>var a = 1</script><template>tpl</template><noscript>ns</noscript>Send</button>',
    name: 'Send',
  },
  {
    step: '2A',
    what: 'display:none inline',
    html: '<button data-m="x">Delete <span style="display:none">everything</span></button>',
    name: 'Delete',
    css: true,
  },
  {
    step: '2A',
    what: 'display:none from a class rule',
    html: '<style>.gone{display:none}</style><button data-m="x">Save<span class="gone"> and publish</span></button>',
    name: 'Save',
    css: true,
  },
  {
    step: '2A',
    what: 'visibility:hidden with a visible child',
    html: '<h2 data-m="x">seen, <span style="visibility:hidden">unseen, <span style="visibility:visible">seen again</span></span></h2>',
    name: 'seen, seen again',
    css: true,
  },
  {
    step: '2A',
    what: 'the closed part of a details element',
    html: '<a href="#" data-m="x">More<details><summary>about</summary>hidden body</details></a>',
    name: 'More about',
    css: true,
  },

  // 2B: aria-labelledby, and hidden nodes it references.
  {
    step: '2B',
    what: 'a hidden referenced node counts, with its hidden children',
    html: '<button data-m="x" aria-labelledby="h1"></button><span id="h1" style="display:none">foo <span style="display:none">bar</span></span>',
    name: 'foo bar',
    css: true,
  },
  {
    step: '2B',
    what: 'a shown referenced node keeps its hidden children out',
    html: '<button data-m="x" aria-labelledby="h2"></button><span id="h2">foo <span style="display:none">bar</span></span>',
    name: 'foo',
    css: true,
  },
  {
    step: '2B',
    what: 'hidden attribute on the referenced node and its child',
    html: '<button data-m="x" aria-labelledby="h3"></button><span id="h3" hidden>foo <span hidden>bar</span></span>',
    name: 'foo bar',
  },
  {
    step: '2B',
    what: 'aria-hidden child of a shown referenced node',
    html: '<button data-m="x" aria-labelledby="h4"></button><span id="h4">foo <span aria-hidden="true">bar</span></span>',
    name: 'foo',
  },
  {
    step: '2B',
    what: 'aria-hidden referenced node',
    html: '<button data-m="x" aria-labelledby="h5"><span aria-hidden="true" id="h5">hidden but referenced</span><span>shown</span></button>',
    name: 'hidden but referenced',
  },
  {
    step: '2B',
    what: 'several referenced nodes of assorted visibility, in order',
    html: '<a href="#" data-m="x" aria-labelledby="la lb lc"><span id="la"><span>one,</span><span aria-hidden="true">not me,</span></span><span aria-hidden="true" id="lb">two,</span><span hidden id="lc">three</span></a>',
    name: 'one, two, three',
  },
  {
    step: '2B',
    what: "a referenced node's own aria-labelledby is not followed",
    html: '<span id="p">Billing</span><span id="q" aria-labelledby="p">Shipping</span><input data-m="x" aria-labelledby="q">',
    name: 'Shipping',
  },
  {
    step: '2B',
    what: 'an element labelled by itself and another',
    html: '<button data-m="x" id="s" aria-labelledby="s t">Delete</button><span id="t">report.pdf</span>',
    name: 'Delete report.pdf',
  },
  {
    step: '2B',
    what: "a referenced node's aria-label",
    html: '<span id="r" aria-label="Remove item">x</span><button data-m="x" aria-labelledby="r">y</button>',
    name: 'Remove item',
  },

  // 2C: embedded controls give their values.
  {
    step: '2C',
    what: 'a text field inside a checkbox label',
    html: '<label><input type="checkbox" data-m="x">Flash the screen <input type="text" value="3" aria-label="count"> times</label>',
    name: 'Flash the screen 3 times',
  },
  {
    step: '2C',
    what: 'a select inside a checkbox label',
    html: '<label><input type="checkbox" data-m="x">Flash the screen <select aria-label="count"><option>1</option><option selected>2</option></select> times</label>',
    name: 'Flash the screen 2 times',
  },
  {
    step: '2C',
    what: 'a range inside a checkbox label',
    html: '<label><input type="checkbox" data-m="x">Volume <input type="range" min="0" max="10" value="7"> of ten</label>',
    name: 'Volume 7 of ten',
  },
  {
    step: '2C',
    what: 'a slider role gives its aria-valuetext',
    html: '<div role="button" data-m="x">Level <span role="slider" aria-valuenow="4" aria-valuetext="four"></span></div>',
    name: 'Level four',
  },
  {
    step: '2C',
    what: 'a spinbutton gives its aria-valuenow',
    html: '<div role="link" data-m="x">Page <span role="spinbutton" aria-valuenow="12"></span></div>',
    name: 'Page 12',
  },
  {
    step: '2C',
    what: 'a referenced text field gives its value',
    html: '<input id="v" value="Alice"><button data-m="x" aria-labelledby="v w">x</button><span id="w">profile</span>',
    name: 'Alice profile',
  },

  // 2D: aria-label.
  {
    step: '2D',
    what: 'aria-label before content',
    html: '<button data-m="x" aria-label="Close dialog">×</button>',
    name: 'Close dialog',
  },
  {
    step: '2D',
    what: 'aria-label of a part of the content',
    html: '<a href="#" data-m="x">Go to <span aria-label="the cart">🛒</span></a>',
    name: 'Go to the cart',
  },
  {
    step: '2D',
    what: 'a blank aria-label is no name',
    html: '<button data-m="x" aria-label="  ">Send</button>',
    name: 'Send',
  },

  // 2E: host language labels.
  {
    step: '2E',
    what: 'input type=button value',
    html: '<input type="button" value="button label" data-m="x">',
    name: 'button label',
  },
  { step: '2E', what: 'input type=submit without value', html: '<input type="submit" data-m="x">', name: 'Submit' },
  { step: '2E', what: 'input type=reset without value', html: '<input type="reset" data-m="x">', name: 'Reset' },
  {
    step: '2E',
    what: 'input type=image alt',
    html: '<input type="image" alt="image input label" src="x.png" data-m="x">',
    name: 'image input label',
  },
  {
    step: '2E',
    what: 'label[for] on a checkbox with a value',
    html: '<label for="cbv">checkbox label</label><input id="cbv" type="checkbox" value="test" data-m="x">',
    name: 'checkbox label',
  },
  {
    step: '2E',
    what: 'label[for] on a text field with a value',
    html: '<label for="tv">textfield label</label><input id="tv" type="text" value="typed" data-m="x">',
    name: 'textfield label',
  },
  {
    step: '2E',
    what: 'a display:none label still names its field',
    html: '<label for="i1" style="display:none">input label</label><input id="i1" type="text" data-m="x">',
    name: 'input label',
    css: true,
  },
  {
    step: '2E',
    what: 'an aria-hidden label still names its field',
    html: '<label for="i2" aria-hidden="true">input label</label><input id="i2" type="text" data-m="x">',
    name: 'input label',
  },
  {
    step: '2E',
    what: 'a hidden label names an input button over its value',
    html: '<label for="i3" hidden>input label</label><input id="i3" type="button" value="button" data-m="x">',
    name: 'input label',
  },
  {
    step: '2E',
    what: "a label's aria-hidden required mark is left out",
    html: '<label for="i4">Email <span aria-hidden="true">*</span></label><input id="i4" data-m="x">',
    name: 'Email',
  },
  {
    step: '2E',
    what: 'wrapping label around a checkbox',
    html: '<label><input type="checkbox" data-m="x">checkbox label</label>',
    name: 'checkbox label',
  },
  { step: '2E', what: 'img alt', html: '<img src="logo.png" alt="Company logo" data-m="x">', name: 'Company logo' },
  {
    step: '2E',
    what: "an image link's alt",
    html: '<a href="/" data-m="x"><img src="logo.png" alt="Home"></a>',
    name: 'Home',
  },
  {
    step: '2E',
    what: 'svg title inside a button',
    html: '<button data-m="x"><svg><title>Settings</title><path d="M0 0"></path></svg></button>',
    name: 'Settings',
  },
  {
    step: '2E',
    what: 'fieldset legend',
    html: '<fieldset data-m="x"><legend>Billing</legend><input aria-label="Card"></fieldset>',
    name: 'Billing',
  },
  {
    step: '2E',
    what: 'table caption',
    html: '<table data-m="x"><caption>Orders</caption><tr><td>1</td></tr></table>',
    name: 'Orders',
  },
  {
    step: '2E',
    what: 'placeholder when nothing else',
    html: '<input placeholder="Search docs" data-m="x">',
    name: 'Search docs',
  },
  {
    step: '2E',
    what: 'title of a field with nothing else',
    html: '<input title="Quantity" data-m="x">',
    name: 'Quantity',
  },

  // 2F: name from content, with CSS generated content.
  {
    step: '2F',
    what: '::before and ::after',
    html: '<style>.b::before{content:"before "}.a::after{content:" after"}</style><button class="b a" data-m="x">label</button>',
    name: 'before label after',
    css: true,
  },
  {
    step: '2F',
    what: 'attr() in ::after',
    html: '<style>.n::after{content:attr(data-n)}</style><a href="#" class="n" data-n=" (3)" data-m="x">Inbox</a>',
    name: 'Inbox (3)',
    css: true,
  },
  {
    step: '2F',
    what: "an icon font's glyph is no text",
    html: '<style>.fa-heart::before{content:"\\f004"}</style><button data-m="x"><i class="fa-heart"></i> Like</button>',
    name: 'Like',
    css: true,
  },
  {
    step: '2F',
    what: 'generated content of a part',
    html: '<style>.opt::after{content:" (optional)"}</style><button data-m="x"><span class="opt">Apply</span></button>',
    name: 'Apply (optional)',
    css: true,
  },
  // Not Chromium's: a required mark drawn by CSS is decoration, flagged `required` in the listing.
  {
    step: '2F',
    what: 'a required mark drawn by CSS is left out',
    html: '<style>.is-required label::before{content:"*"}</style><div class="is-required"><label for="pw">Password</label><input id="pw" data-m="x"></div>',
    name: 'Password',
    css: true,
  },
  {
    step: '2F',
    what: 'an image and text, in order',
    html: '<button data-m="x"><img src="t.png" alt="Trash"> Remove</button>',
    name: 'Trash Remove',
  },
  {
    step: '2F',
    what: 'a heading named by its content',
    html: '<h3 data-m="x">Recent <em>orders</em></h3>',
    name: 'Recent orders',
  },

  // 2G/2H: text nodes and recursion.
  {
    step: '2G',
    what: 'inline parts join without spaces',
    html: '<a href="#" data-m="x">x<span>y</span>z</a>',
    name: 'xyz',
  },
  {
    step: '2H',
    what: 'block parts are set apart',
    html: '<button data-m="x"><div>Sign</div><div>in</div></button>',
    name: 'Sign in',
  },
  { step: '2H', what: 'whitespace collapses', html: '<a href="#" data-m="x">  Read\n   more </a>', name: 'Read more' },
  {
    step: '2H',
    what: 'a nested title names its part',
    html: '<button data-m="x"><i class="icon-edit" title="Edit"></i></button>',
    name: 'Edit',
  },

  // 2I: tooltip.
  {
    step: '2I',
    what: 'title of an empty button role',
    html: '<div role="button" data-m="x" title="Tip"></div>',
    name: 'Tip',
  },
  {
    step: '2I',
    what: 'a generic element is named by its title, not its content',
    html: '<div data-m="x" title="Tip">Some words</div>',
    name: 'Tip',
  },
]
