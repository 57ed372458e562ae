/** Small text renderers shared by the views: highlighted snippets, answers with citation chips. */
import { Fragment, useState, type ReactNode } from 'react';

/** A snippet with its matches wrapped in « » (as the engine marks them) shown as <mark>. */
export function Highlighted({ text }: { text: string }) {
  const parts = text.split(/«|»/);
  return (
    <>
      {parts.map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : <Fragment key={i}>{part}</Fragment>))}
    </>
  );
}

/**
 * Answer text with each [n] turned into a chip that opens that source ([1, 2] and [1][2] both work),
 * **bold** kept bold, and [[wiki links]] of quoted notes shown as links (into the graph, when given).
 */
export function CitedText({
  text,
  onCite,
  known,
  onLink,
  label = (n) => n,
}: {
  text: string;
  onCite: (n: number) => void;
  known: (n: number) => boolean;
  onLink?: (name: string) => void;
  /** The number a reader sees for source n (citationNumbers). */
  label?: (n: number) => number;
}) {
  const out: ReactNode[] = [];
  const re = /\[\[([^\]\n]+?)\]\]|\[(\d+(?:\s*,\s*\d+)*)\]|\*\*([^*\n]+)\*\*/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) {
      const name = m[1].split('|').pop()!.trim();
      out.push(
        onLink ? (
          <button key={m.index} type="button" className="wikilink" onClick={() => onLink(m[1]!.split('|')[0]!.trim())} title={`${name} in the graph`}>
            {name}
          </button>
        ) : (
          <span key={m.index} className="wikilink">
            {name}
          </span>
        ),
      );
    } else if (m[3] !== undefined) {
      out.push(<strong key={m.index}>{m[3]}</strong>);
    } else {
      for (const n of m[2]!.split(',').map((x) => Number(x.trim()))) {
        out.push(
          known(n) ? (
            <button key={`${m.index}-${n}`} type="button" className="cite-chip" onClick={() => onCite(n)} title={`Open source [${label(n)}]`} aria-label={`Open source ${label(n)}`}>
              {label(n)}
            </button>
          ) : (
            <span key={`${m.index}-${n}`} className="cite-chip cite-chip--dead" title="This number matches no source">
              {n}
            </span>
          ),
        );
      }
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return <>{out}</>;
}

export { citationNumbers } from '../../../shared/answer-view.ts';

/** A duration for people: "840 ms", "3.2 s", "9 min 44 s". */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  return formatDuration(ms / 1000);
}

/** "1 passage", "2 passages": a count with its noun. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.ceil(n / 1024)} KB`;
}

/** A question past this many characters is shown cut, with a button that shows the rest. */
export const LONG_TEXT_CHARS = 200;

/** The start of a text, cut at a word within `max` characters, with "…" when cut. */
export function clipText(text: string, max = LONG_TEXT_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A text that may be long (a pasted question): cut with "Show all", whole again with "Show less". */
export function LongText({ text, max = LONG_TEXT_CHARS }: { text: string; max?: number }) {
  const [whole, setWhole] = useState(false);
  if (text.length <= max) return <>{text}</>;
  return (
    <>
      {whole ? text : clipText(text, max)}{' '}
      <button type="button" className="link small long-text__toggle" onClick={() => setWhole(!whole)} aria-expanded={whole} data-testid="long-text-toggle">
        {whole ? 'Show less' : `Show all ${text.length.toLocaleString('en-US')} characters`}
      </button>
    </>
  );
}
