import { onTestFinished } from 'vitest';

type IntlKind = 'Collator' | 'NumberFormat' | 'DateTimeFormat';

/**
 * Counts the Intl objects of one kind made from now to the end of the test: making one is what
 * a list page must not do before its first paint (see "The first Intl object" in
 * ARCHITECTURE.md). Returns the count so far.
 */
export function countIntlMade(kind: IntlKind): () => number {
  const Original = Intl[kind] as unknown as new (...args: unknown[]) => object;
  let made = 0;
  Reflect.set(Intl, kind, function (...args: unknown[]) {
    made += 1;
    return new Original(...args);
  });
  onTestFinished(() => void Reflect.set(Intl, kind, Original));
  return () => made;
}
