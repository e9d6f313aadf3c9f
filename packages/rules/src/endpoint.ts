// Address and port specifications of a rule header, Snort/Suricata syntax:
// `any`, `$HOME_NET`, `10.0.0.0/8`, `!1.2.3.4`, `[a,b,![c,d]]`; ports `80`, `1024:`, `:1023`,
// `1:1024`, `$HTTP_PORTS`, `[80,443,!8080]`. One recursive-descent pass, no regular expressions.

export type AddressSpec =
  | { kind: 'any' }
  | { kind: 'variable'; name: string }
  /** An IPv4/IPv6 address, CIDR block or range as written (`10.0.0.0/8`, `::1`). */
  | { kind: 'address'; value: string }
  | { kind: 'not'; spec: AddressSpec }
  | { kind: 'list'; items: AddressSpec[] };

export type PortSpec =
  | { kind: 'any' }
  | { kind: 'variable'; name: string }
  | { kind: 'port'; port: number }
  /** `from:to`; an open end is `null` (`1024:` → from 1024, to null). */
  | { kind: 'range'; from: number | null; to: number | null }
  | { kind: 'not'; spec: PortSpec }
  | { kind: 'list'; items: PortSpec[] };

export interface SpecError {
  /** 0-based offset in the text where the problem is. */
  offset: number;
  message: string;
}

export type SpecResult<T> = { ok: true; spec: T } | { ok: false; error: SpecError };

const MAX_PORT = 65535;
/** Deeper lists are refused (no real rule comes close), so recursion stays shallow. */
const MAX_DEPTH = 32;

/** Thrown inside the recursive descent only; `run` turns it into a result. */
class SpecFailure extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

type AtomReader<T> = (atom: string, offset: number) => T;

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

function isWordChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 // _
  );
}

/** Generic list/negation grammar; the atom reader gives the leaves their meaning. */
class SpecParser<T> {
  private pos = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly readAtom: AtomReader<T>,
    private readonly wrapNot: (spec: T) => T,
    private readonly wrapList: (items: T[]) => T,
  ) {}

  parse(): T {
    const first = this.item();
    this.skipSpace();
    let spec = first;
    if (this.text.charCodeAt(this.pos) === 44 /* , */) {
      // Suricata reads a top-level `a,b` as the list `[a,b]`.
      const items = [first];
      while (this.text.charCodeAt(this.pos) === 44) {
        this.pos++;
        items.push(this.item());
        this.skipSpace();
      }
      spec = this.wrapList(items);
    }
    if (this.pos < this.text.length) {
      throw new SpecFailure(this.pos, `unexpected '${this.text[this.pos] ?? ''}'`);
    }
    return spec;
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && isSpace(this.text.charCodeAt(this.pos))) this.pos++;
  }

  private item(): T {
    this.skipSpace();
    let negations = 0;
    while (this.text.charCodeAt(this.pos) === 33 /* ! */) {
      this.pos++;
      negations++;
      this.skipSpace();
    }
    let spec = this.text.charCodeAt(this.pos) === 91 /* [ */ ? this.list() : this.atom();
    for (; negations > 0; negations--) spec = this.wrapNot(spec);
    return spec;
  }

  private list(): T {
    const open = this.pos;
    if (++this.depth > MAX_DEPTH) throw new SpecFailure(open, 'lists are nested too deeply');
    this.pos++;
    const items: T[] = [];
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.text.length) throw new SpecFailure(open, "'[' is never closed");
      items.push(this.item());
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos);
      if (c === 44 /* , */) {
        this.pos++;
        continue;
      }
      if (c === 93 /* ] */) {
        this.pos++;
        this.depth--;
        return this.wrapList(items);
      }
      if (this.pos >= this.text.length) throw new SpecFailure(open, "'[' is never closed");
      throw new SpecFailure(this.pos, `expected ',' or ']', found '${this.text[this.pos] ?? ''}'`);
    }
  }

  private atom(): T {
    const start = this.pos;
    while (this.pos < this.text.length) {
      const c = this.text.charCodeAt(this.pos);
      if (c === 44 || c === 93 || c === 91 || c === 33 || isSpace(c)) break;
      this.pos++;
    }
    if (this.pos === start) {
      const found = this.text[start];
      throw new SpecFailure(start, found === undefined ? 'value missing' : `unexpected '${found}'`);
    }
    return this.readAtom(this.text.slice(start, this.pos), start);
  }
}

/** `any`, in any case (Suricata compares it case-insensitively). */
function isAny(atom: string): boolean {
  return atom.length === 3 && (atom === 'any' || atom.toLowerCase() === 'any');
}

function variableName(atom: string, offset: number): string {
  const name = atom.slice(1);
  if (name.length === 0) throw new SpecFailure(offset, "'$' without a variable name");
  for (let i = 0; i < name.length; i++) {
    if (!isWordChar(name.charCodeAt(i))) {
      throw new SpecFailure(offset + 1 + i, `bad character in variable name '${atom}'`);
    }
  }
  return name;
}

function readAddressAtom(atom: string, offset: number): AddressSpec {
  if (isAny(atom)) return { kind: 'any' };
  if (atom.charCodeAt(0) === 36 /* $ */)
    return { kind: 'variable', name: variableName(atom, offset) };
  for (let i = 0; i < atom.length; i++) {
    const c = atom.charCodeAt(i);
    const hex = (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
    // digits, hex letters (IPv6), '.', ':', '/', '-' (ranges)
    if (!hex && c !== 46 && c !== 58 && c !== 47 && c !== 45) {
      throw new SpecFailure(offset, `'${atom}' is not an address, a variable or 'any'`);
    }
  }
  return { kind: 'address', value: atom };
}

function portNumber(text: string, offset: number): number {
  if (text.length === 0 || text.length > 5) {
    throw new SpecFailure(offset, `'${text}' is not a port number`);
  }
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) throw new SpecFailure(offset, `'${text}' is not a port number`);
    n = n * 10 + (c - 48);
  }
  if (n > MAX_PORT) throw new SpecFailure(offset, `port ${n} is above ${MAX_PORT}`);
  return n;
}

function readPortAtom(atom: string, offset: number): PortSpec {
  if (isAny(atom)) return { kind: 'any' };
  if (atom.charCodeAt(0) === 36 /* $ */)
    return { kind: 'variable', name: variableName(atom, offset) };
  const colon = atom.indexOf(':');
  if (colon < 0) return { kind: 'port', port: portNumber(atom, offset) };
  const low = atom.slice(0, colon);
  const high = atom.slice(colon + 1);
  if (low.length === 0 && high.length === 0) {
    throw new SpecFailure(offset, "':' is not a port range");
  }
  const from = low.length === 0 ? null : portNumber(low, offset);
  const to = high.length === 0 ? null : portNumber(high, offset + colon + 1);
  if (from !== null && to !== null && from > to) {
    throw new SpecFailure(offset, `port range ${atom} runs backwards`);
  }
  return { kind: 'range', from, to };
}

function run<T>(parse: () => T): SpecResult<T> {
  try {
    return { ok: true, spec: parse() };
  } catch (error) {
    if (error instanceof SpecFailure) {
      return { ok: false, error: { offset: error.offset, message: error.message } };
    }
    throw error;
  }
}

/** Parses an address specification (`any`, `$HOME_NET`, `[10.0.0.0/8,!10.1.0.0/16]`, …). */
export function parseAddressSpec(text: string): SpecResult<AddressSpec> {
  return run(() =>
    new SpecParser<AddressSpec>(
      text,
      readAddressAtom,
      (spec) => ({ kind: 'not', spec }),
      (items) => ({ kind: 'list', items }),
    ).parse(),
  );
}

/** Parses a port specification (`any`, `80`, `1024:`, `[80,443]`, `!$HTTP_PORTS`, …). */
export function parsePortSpec(text: string): SpecResult<PortSpec> {
  return run(() =>
    new SpecParser<PortSpec>(
      text,
      readPortAtom,
      (spec) => ({ kind: 'not', spec }),
      (items) => ({ kind: 'list', items }),
    ).parse(),
  );
}

/** True for the header values that need no parsing (`any`, `$VAR`, a plain port number). */
export function isSimpleSpec(text: string): boolean {
  if (text === 'any') return true;
  const first = text.charCodeAt(0);
  const start = first === 36 /* $ */ ? 1 : 0;
  if (start === 1 && text.length === 1) return false;
  if (start === 0 && (first < 48 || first > 57)) return false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (start === 1 ? !isWordChar(c) : c < 48 || c > 57) return false;
  }
  return start === 1 || text.length <= 4; // 0–9999 cannot exceed the port maximum
}
