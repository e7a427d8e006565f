/**
 * An element's words: everything Ava reads on and around a control to name it, find it and show
 * it to a person, in one place (docs/architecture.md, "An element's words"; docs/page-representation.md).
 *
 * - accname.ts: the accessible name (accname 1.2 with HTML-AAM), a field's label text, the visible
 *   text of a record; the one place `aria-labelledby` and `<label>`s are resolved for a name;
 * - visibility.ts: whether a node shows and what CSS generates for it, cached for one pass;
 * - icons.ts: the name guessed for an unnamed control from its icon, and what a drawn icon means;
 * - around.ts: what the name leaves out — the widget part, the group, the record, the label by
 *   layout, and a never-empty label for a candidate shown to a person;
 * - nearby.ts: the label near a field, tied or not, and the words a control is matched by (its
 *   own, those around it).
 */
export * from './accname'
export * from './visibility'
export * from './icons'
export * from './around'
export * from './nearby'
