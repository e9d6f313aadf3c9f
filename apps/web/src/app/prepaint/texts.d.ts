declare module 'virtual:prepaint-texts' {
  /** The PREPAINT_TEXT_KEYS translations, by language (see keys.ts). */
  const texts: Record<
    import('../../lib/language').Language,
    Record<import('./keys').PrepaintTextKey, string>
  >;
  export default texts;
}
