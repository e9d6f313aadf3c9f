// The search syntax of the console's search boxes (alerts, rules, every list): words and
// "quoted phrases" must all appear, `-word` or `-"phrase"` must not, and `OR` between two parts
// matches either. One parser for the server (which builds bound ILIKE conditions from it,
// apps/server/src/lib/search-syntax.ts) and the console (which searches lists it holds whole
// with `matchesSearch`), so that one help text holds for every box. Pure: no I/O.

/** One alternative: every `include` term appears and no `exclude` term does. */
export interface SearchClause {
  include: string[];
  exclude: string[];
}
/** Alternatives joined by OR; empty when the text holds no term. */
export type SearchQuery = SearchClause[];

/** At most this many terms in all: past it the rest of the text is ignored. */
export const MAX_SEARCH_TERMS = 20;

const TOKEN = /(-?)"([^"]*)"?|(\S+)/g;

/** The alternatives of `text`, its terms as written (trimmed); empty when it holds none. */
export function parseSearch(text: string): SearchQuery {
  const clauses: SearchQuery = [];
  let current: SearchClause = { include: [], exclude: [] };
  let terms = 0;
  for (const match of text.matchAll(TOKEN)) {
    if (terms >= MAX_SEARCH_TERMS) break;
    const [, negated, phrase, word] = match;
    if (word === 'OR') {
      if (current.include.length + current.exclude.length > 0) clauses.push(current);
      current = { include: [], exclude: [] };
      continue;
    }
    let term = phrase ?? word ?? '';
    let exclude = negated === '-';
    if (phrase === undefined && term.startsWith('-') && term.length > 1) {
      exclude = true;
      term = term.slice(1);
    }
    if (phrase === undefined && term === '-') continue;
    term = term.trim();
    if (term === '') continue;
    (exclude ? current.exclude : current.include).push(term);
    terms += 1;
  }
  if (current.include.length + current.exclude.length > 0) clauses.push(current);
  return clauses;
}

/**
 * Whether texts (a row's searched fields) match `query`: a term is found when any text holds
 * it, case-insensitively. A query with no term matches everything.
 */
export function matchesSearch(texts: readonly string[], query: SearchQuery): boolean {
  if (query.length === 0) return true;
  const lower = texts.map((text) => text.toLowerCase());
  const holds = (term: string) => {
    const needle = term.toLowerCase();
    return lower.some((text) => text.includes(needle));
  };
  return query.some((clause) => clause.include.every(holds) && !clause.exclude.some(holds));
}

/**
 * Whether a missing text (SQL NULL) matches `query`: only an alternative of exclusions alone
 * (or a query with no term) does, since a missing text holds no term.
 */
export const matchesMissing = (query: SearchQuery): boolean =>
  query.length === 0 || query.some((clause) => clause.include.length === 0);
