/** The repository's root folder. */
export declare const REPO_ROOT: string;
/** The corpus folder: PALISADE_CORPUS, resolved against the repository root. */
export declare const CORPUS_ROOT: string;
/** Carried by the name of every test or group of tests that needs the corpus. */
export declare const NEEDS_CORPUS: string;
/** A path inside the corpus. */
export declare function corpusPath(...parts: string[]): string;
/** The first of the corpus folder and the named parts of it that is missing, or null. */
export declare function missingCorpusPart(...parts: string[]): string | null;
/** Whether the corpus holds every named part (relative paths), saying nothing either way. */
export declare function corpusPresent(...parts: string[]): boolean;
/** Whether the tests that need the corpus can run; prints the one skip line when they cannot. */
export declare function corpusForTests(...parts: string[]): boolean;
