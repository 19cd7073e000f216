// Descriptions from the data in a small, safe subset of Markdown (the Papers with Code
// catalogue writes theirs so: `**QHAdam** is a ... of [Adam](https://...)`): paragraphs,
// lists (`-`, `*`, `+`, `1.`), emphasis (`*a*`, `_a_`, `**a**`, `__a__`), inline code and
// links, a link only when its URL is http(s) (any other, `javascript:` among them, shows its
// text alone). Headings show as a bold paragraph (a description never adds to the page's
// outline), images as their alt text, TeX (`$x_i$`, `$$...$$`) as it is written. Everything
// becomes Preact elements and text nodes: nothing here parses anything as HTML, so markup
// in a description (`<script>`) shows as the text it is.
import type { ComponentChildren } from "preact";

import { ExternalLink } from "./ui";

/** The characters a backslash makes literal (CommonMark's ASCII punctuation, the ones this
 * subset gives a meaning to). */
const ESCAPABLE = "\\`*_[]()#+-.!$";
/** What may stand before an opening `*` or `_`: the start, a space or an opening mark (so
 * `snake_case`, `window.__name` and `2*3*4` are no emphasis). */
const OPENS_AFTER = /[\s([{"'“‘\-/]/;
const WORD = /[\p{L}\p{N}]/u;
/** Emphasis in emphasis in ...: no deeper than this. */
const DEPTH = 4;

type Span = { inner: string; end: number };

/** The `[label](url "title")` at ``start`` (a `[`): its label, URL and where it ends. */
function link(text: string, start: number): (Span & { url: string }) | null {
  let depth = 0;
  let close = -1;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "[") depth++;
    else if (text[i] === "]" && --depth === 0) {
      close = i;
      break;
    }
  }
  if (close < 0 || text[close + 1] !== "(") return null;
  depth = 0;
  for (let i = close + 1; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) {
      const target = text.slice(close + 2, i).trim();
      const url = /^<?(\S*?)>?(?:\s+["'(].*)?$/s.exec(target)?.[1] ?? "";
      return { inner: text.slice(start + 1, close), url, end: i + 1 };
    }
  }
  return null;
}

/** The emphasis whose opening run (`*`, `**`, `_` or `__`) is at ``start``, if it closes. */
function emphasis(text: string, start: number): (Span & { strong: boolean }) | null {
  const mark = text[start];
  const strong = text[start + 1] === mark;
  const run = strong ? mark + mark : mark;
  const before = start ? text[start - 1] : " ";
  const after = text[start + run.length] ?? " ";
  if (/\s/.test(after) || after === mark || !OPENS_AFTER.test(before)) return null;
  for (let at = text.indexOf(run, start + run.length + 1); at >= 0; at = text.indexOf(run, at + 1)) {
    const last = text[at - 1];
    const next = text[at + run.length] ?? " ";
    if (/\s/.test(last) || last === "\\" || WORD.test(next) || next === mark) continue;
    return { inner: text.slice(start + run.length, at), end: at + run.length, strong };
  }
  return null;
}

/** A line of text with its inline marks as elements, the rest as text. */
function inline(text: string, depth = 0): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let plain = "";
  const flush = () => {
    if (plain) out.push(plain);
    plain = "";
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\" && ESCAPABLE.includes(text[i + 1] ?? "")) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (c === "`") {
      const run = /^`+/.exec(text.slice(i))?.[0] ?? "`";
      const end = text.indexOf(run, i + run.length);
      if (end > i) {
        flush();
        out.push(<code>{text.slice(i + run.length, end)}</code>);
        i = end + run.length;
      } else {
        plain += run;
        i += run.length;
      }
      continue;
    }
    if (c === "$") {
      // TeX is shown as written: nothing in it is emphasis.
      const tex = /^\$\$[\s\S]+?\$\$|^\$[^$\n]+\$/.exec(text.slice(i))?.[0];
      if (tex) {
        plain += tex;
        i += tex.length;
        continue;
      }
    }
    if (c === "[" || (c === "!" && text[i + 1] === "[")) {
      const image = c === "!";
      const found = link(text, image ? i + 1 : i);
      if (found) {
        flush();
        const label = image ? [found.inner || "image"] : inline(found.inner, depth + 1);
        out.push(<ExternalLink url={found.url}>{label}</ExternalLink>);
        i = found.end;
        continue;
      }
    }
    if ((c === "*" || c === "_") && depth < DEPTH) {
      const found = emphasis(text, i);
      if (found) {
        flush();
        const inner = inline(found.inner, depth + 1);
        out.push(found.strong ? <strong>{inner}</strong> : <em>{inner}</em>);
        i = found.end;
        continue;
      }
    }
    plain += c;
    i += 1;
  }
  flush();
  return out;
}

const ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/;

type Block = { kind: "p" | "heading" } | { kind: "ul" | "ol"; items: string[] };

/** A run of lines without a blank one: paragraphs, lists and headings, in order. */
function blocks(lines: string[]): (Block & { text: string })[] {
  const out: (Block & { text: string })[] = [];
  for (const line of lines) {
    const last = out[out.length - 1];
    const item = ITEM.exec(line);
    const heading = HEADING.exec(line);
    if (item) {
      const kind = /\d/.test(item[1]) ? "ol" : "ul";
      if (last && last.kind === kind) last.items.push(item[2]);
      else out.push({ kind, items: [item[2]], text: "" });
    } else if (heading) {
      out.push({ kind: "heading", text: heading[1] });
    } else if (last && (last.kind === "ul" || last.kind === "ol") && /^\s/.test(line)) {
      last.items[last.items.length - 1] += ` ${line.trim()}`;
    } else if (last && last.kind === "p") {
      last.text += ` ${line.trim()}`;
    } else {
      out.push({ kind: "p", text: line.trim() });
    }
  }
  return out;
}

/** A description in the subset above, as paragraphs and lists in a `div.description`. */
export function Markdown({ text }: { text: string }) {
  const parts = text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .flatMap((chunk) => blocks(chunk.split("\n").filter((line) => line.trim())));
  return (
    <div class="description">
      {parts.map((part, index) => {
        if (part.kind === "ul" || part.kind === "ol") {
          const List = part.kind;
          return (
            <List key={index}>
              {part.items.map((item, at) => (
                <li key={at}>{inline(item)}</li>
              ))}
            </List>
          );
        }
        if (part.kind === "heading") {
          return (
            <p key={index}>
              <strong>{inline(part.text)}</strong>
            </p>
          );
        }
        return <p key={index}>{inline(part.text)}</p>;
      })}
    </div>
  );
}
