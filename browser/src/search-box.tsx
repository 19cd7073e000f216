// The search box on every page: a combobox (WAI-ARIA's pattern) whose suggestions come from
// the same Search operation as the results page. Down and Up move through them, Enter opens
// the one chosen (or, with none chosen, the results page), Escape closes them.
import { useEffect, useRef, useState } from "preact/hooks";

import { BrowserSearchDocument, type BrowserSearchQuery } from "../../clients/typescript/src/gql/graphql";
import { answered, execute } from "./api";
import { href, navigate } from "./router";

type Hit = NonNullable<BrowserSearchQuery["search"]>["nodes"][number];
const SUGGESTIONS = 8;
const WAIT_MS = 150;

/** Where a hit leads, what it is called and what kind it is. */
export function describeHit(hit: Hit): { url: string; name: string; kind: string; detail: string } {
  switch (hit.__typename) {
    case "Node":
      return { url: href.node(hit.slugPath), name: hit.name, kind: "node", detail: hit.path };
    case "Method":
      return { url: href.method(hit.slug), name: hit.name, kind: "method", detail: hit.node.path };
    case "Model":
      return { url: href.model(hit.slug), name: hit.name, kind: "model", detail: hit.organization ?? "" };
    default:
      // A source (a model's document) leads to its model's page, where its sources are listed.
      return { url: href.model(hit.model.slug), name: hit.name, kind: "source", detail: hit.model.name };
  }
}

export function SearchBox({ initial = "", id = "search" }: { initial?: string; id?: string }) {
  const [text, setText] = useState(initial);
  const [hits, setHits] = useState<Hit[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const latest = useRef(0);
  // Suggestions follow typing only: a box opened on the results page's words fetches none.
  const typed = useRef(false);
  useEffect(() => {
    typed.current = false;
    setText(initial);
  }, [initial]);

  useEffect(() => {
    const words = text.trim();
    if (!typed.current || words.length < 2) {
      setHits([]);
      return;
    }
    const ticket = ++latest.current;
    const abort = new AbortController();
    const timer = window.setTimeout(() => {
      execute(BrowserSearchDocument, { query: words, first: SUGGESTIONS }, abort.signal).then(
        (data) => {
          if (ticket !== latest.current) return;
          setHits(answered(data.search, "search").nodes);
          setActive(-1);
        },
        () => {
          if (ticket === latest.current) setHits([]); // the results page says what went wrong
        },
      );
    }, WAIT_MS);
    return () => {
      window.clearTimeout(timer);
      abort.abort();
    };
  }, [text]);

  const listId = `${id}-suggestions`;
  const shown = open && hits.length > 0;
  const go = (url: string) => {
    setOpen(false);
    setActive(-1);
    navigate(url);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!hits.length) return;
      event.preventDefault();
      setOpen(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      // -1 (the text itself), then each suggestion, round and round.
      setActive((current) => ((current + 1 + step + hits.length + 1) % (hits.length + 1)) - 1);
    } else if (event.key === "Escape") {
      setOpen(false);
      setActive(-1);
    } else if (event.key === "Enter" && shown && active >= 0 && active < hits.length) {
      event.preventDefault();
      go(describeHit(hits[active]).url);
    }
  };
  return (
    <form
      role="search"
      class="search"
      action="/search"
      method="get"
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim()) go(href.search(text.trim()));
      }}
    >
      <label for={id} class="visually-hidden">
        Search nodes, methods and models
      </label>
      <input
        id={id}
        name="q"
        type="search"
        autoComplete="off"
        placeholder="Search nodes, methods, models"
        role="combobox"
        list={undefined} // Preact's types want `list` named on a combobox input; it has none
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? `${listId}-${active}` : undefined}
        value={text}
        onInput={(event) => {
          typed.current = true;
          setText((event.currentTarget as HTMLInputElement).value);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => window.setTimeout(() => setOpen(false), 150)}
        onFocus={() => setOpen(true)}
      />
      <button type="submit">Search</button>
      <ul id={listId} role="listbox" aria-label="Suggestions" class="suggestions" hidden={!shown}>
        {hits.map((hit, index) => {
          const { url, name, kind, detail } = describeHit(hit);
          return (
            <li
              id={`${listId}-${index}`}
              key={hit.id}
              role="option"
              aria-selected={index === active}
              class={index === active ? "active" : undefined}
              onMouseDown={(event) => {
                event.preventDefault();
                go(url);
              }}
            >
              <span class="kind">{kind}</span> <span class="name">{name}</span>
              {detail ? <span class="detail"> {detail}</span> : null}
            </li>
          );
        })}
      </ul>
    </form>
  );
}
