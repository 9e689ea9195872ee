// WebDAV request bodies (PROPFIND, PROPPATCH, LOCK) parsed with @xmldom/xmldom — malformed XML is a 400 — and dead
// properties set by PROPPATCH, kept per path (moved and copied with their resource) in the gateway's memory and, when
// given a store, on disk so a restart keeps them (dav-state.ts; git records the vault's files, not their properties).
import { DOMParser, XMLSerializer, type Element } from '@xmldom/xmldom';
import type { Persisted } from './dav-state.js';

export const DAV_NS = 'DAV:';
export interface PropName {
  ns: string;
  local: string;
}
export const keyOf = (p: PropName) => `{${p.ns}}${p.local}`;

/** The document element of an XML body, null for an empty body, 'bad' when it is not well-formed XML. */
export function parseXml(body: Buffer): Element | null | 'bad' {
  const text = body.toString('utf8');
  if (text.trim() === '') return null;
  try {
    const doc = new DOMParser({
      onError: (level, msg) => {
        if (level !== 'warning') throw new Error(msg);
      },
    }).parseFromString(text, 'application/xml');
    return doc.documentElement ?? 'bad';
  } catch {
    return 'bad';
  }
}

export const elements = (e: Element): Element[] =>
  Array.from(e.childNodes as unknown as ArrayLike<Element>).filter((n) => n.nodeType === 1);
export const child = (e: Element, local: string, ns = DAV_NS): Element | undefined =>
  elements(e).find((c) => c.localName === local && (c.namespaceURI ?? '') === ns);
export const nameOf = (e: Element): PropName => ({ ns: e.namespaceURI ?? '', local: e.localName ?? '' });
/** `<name/>` in its namespace (a property with no namespace gets xmlns=""). */
export const emptyProp = (p: PropName) =>
  p.ns === '' ? `<${p.local} xmlns=""/>` : `<x:${p.local} xmlns:x="${p.ns.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)}"/>`;
export const serialize = (e: Element) => new XMLSerializer().serializeToString(e);

/** What a PROPFIND body asks for: every property (null), or these names. 'bad' for a body that is not a propfind. */
export function propfindWants(root: Element | null): PropName[] | null | 'bad' {
  if (root === null) return null;
  if (root.localName !== 'propfind' || root.namespaceURI !== DAV_NS) return 'bad';
  const prop = child(root, 'prop');
  if (prop) return elements(prop).map(nameOf);
  if (child(root, 'allprop') || child(root, 'propname')) return null;
  return 'bad';
}

type Dead = { name: PropName; xml: string };

export class DavProps {
  readonly #byPath = new Map<string, Map<string, Dead>>();
  readonly #store: Persisted<Array<[string, Dead[]]>> | undefined;

  constructor(store?: Persisted<Array<[string, Dead[]]>>) {
    this.#store = store;
    for (const [rel, props] of store?.initial ?? []) this.#byPath.set(rel, new Map(props.map((p) => [keyOf(p.name), p])));
  }

  /** After any change: the store holds every path's properties. */
  #changed(): void {
    this.#store?.save([...this.#byPath].filter(([, m]) => m.size > 0).map(([rel, m]) => [rel, [...m.values()]]));
  }

  get(rel: string): { name: PropName; xml: string }[] {
    return [...(this.#byPath.get(rel)?.values() ?? [])];
  }

  /** Applies a PROPPATCH body (set/remove, in order); the names touched, or 'bad'. Live DAV: properties are refused. */
  patch(rel: string, root: Element | null): { name: PropName; ok: boolean }[] | 'bad' {
    if (root?.localName !== 'propertyupdate' || root.namespaceURI !== DAV_NS) return 'bad';
    const next = new Map(this.#byPath.get(rel) ?? []);
    const out: { name: PropName; ok: boolean }[] = [];
    let refused = false;
    for (const op of elements(root)) {
      const prop = child(op, 'prop');
      if (!prop || op.namespaceURI !== DAV_NS || (op.localName !== 'set' && op.localName !== 'remove')) return 'bad';
      for (const p of elements(prop)) {
        const name = nameOf(p);
        const live = name.ns === DAV_NS;
        if (live) refused = true;
        out.push({ name, ok: !live });
        if (live) continue;
        if (op.localName === 'set') next.set(keyOf(name), { name, xml: serialize(p) });
        else next.delete(keyOf(name));
      }
    }
    if (!refused) {
      this.#byPath.set(rel, next); // all or nothing (RFC 4918 9.2)
      this.#changed();
    }
    return refused ? out.map((o) => ({ ...o, ok: false })) : out;
  }

  remove(rel: string): void {
    if (this.#drop(rel)) this.#changed();
  }

  copy(from: string, to: string): void {
    if (this.#copy(from, to)) this.#changed();
  }

  move(from: string, to: string): void {
    const copied = this.#copy(from, to);
    if (this.#drop(from) || copied) this.#changed();
  }

  #drop(rel: string): boolean {
    let any = false;
    for (const k of [...this.#byPath.keys()]) if (k === rel || k.startsWith(`${rel}/`)) any = this.#byPath.delete(k) || any;
    return any;
  }

  #copy(from: string, to: string): boolean {
    let any = false;
    for (const [k, v] of [...this.#byPath]) {
      if (k === from) this.#byPath.set(to, new Map(v));
      else if (k.startsWith(`${from}/`)) this.#byPath.set(to + k.slice(from.length), new Map(v));
      else continue;
      any = true;
    }
    return any;
  }
}
