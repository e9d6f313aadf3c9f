import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
// With their extensions, as Node imports them: Vite's native config loader (its coming default).
import { PREPAINT_TEXTS_MODULE, PREPAINT_TEXT_KEYS } from './src/app/prepaint/keys.ts';
import { LANGUAGES } from './src/lib/language.ts';

/** The benchmark pages (bench.html, src/app/bench/): built only with `--mode bench`. */
const BENCH_SOURCES = '/src/app/bench/';

/**
 * The libraries every signed-in screen renders with: MUI's core and what it is built on, and
 * TanStack Query. Libraries only some screens use (charts, drag and drop, diff) stay with them.
 */
const SIGNED_IN_KIT = new RegExp(
  String.raw`node_modules[\\/](` +
    [
      String.raw`@mui[\\/](material|system|utils|styled-engine|private-theming)`,
      '@emotion',
      String.raw`@tanstack[\\/](react-query|query-core)`,
      'react-transition-group',
      '@popperjs',
      'clsx',
      'stylis',
      'hoist-non-react-statics',
      'react-is',
      'prop-types',
      String.raw`@babel[\\/]runtime`,
    ].join('|') +
    String.raw`)[\\/]`,
);

/**
 * The libraries the console starts with (src/app/start.tsx and the sign-in page): React, the
 * router, i18next and the HTTP client. They were the entry's own chunk; the entry is now only
 * the pre-painted frame (src/app/main.tsx), which imports start when it has been painted.
 */
const CONSOLE_START = new RegExp(
  String.raw`node_modules[\\/](` +
    [
      'react',
      'react-dom',
      'scheduler',
      'react-router',
      'i18next',
      'react-i18next',
      'use-sync-external-store',
      'ky',
    ].join('|') +
    String.raw`)[\\/]`,
);

/** What MUI's modules import its number formatter as ("../locale/utils/buildFormatNumber.mjs"). */
const MUI_FORMAT_NUMBER = /^(?:\.\.\/)+locale\/utils\/buildFormatNumber\.m?js$/;
const LAZY_FORMAT_NUMBER = fileURLToPath(
  new URL('./src/lib/lazy-format-number.ts', import.meta.url),
);

/** A file of the build and the modules in it. */
interface BuiltFile {
  fileName: string;
  moduleIds: readonly string[];
}

/** What must never be in the production build: what each finds fails the build. */
const BUILD_GUARDS: { find: (file: BuiltFile) => string | undefined; failure: string }[] = [
  {
    // The benchmark pages are built only with `--mode bench`.
    find: ({ fileName, moduleIds }) =>
      moduleIds.find((id) => id.includes(BENCH_SOURCES)) ??
      (fileName.includes('bench') ? fileName : undefined),
    failure: 'benchmark code in the production build',
  },
  {
    // The alias above no longer matches how MUI imports its formatter (an upgrade moved it), and
    // a list page would again build an Intl object before its first paint.
    find: ({ moduleIds }) =>
      moduleIds.find((id) => /[\\/]locale[\\/]utils[\\/]buildFormatNumber/.test(id)),
    failure: "MUI's eager number formatter is in the build",
  },
];

/** Fails the build when one of BUILD_GUARDS finds what it looks for in a file of it. */
function buildGuards(): Plugin {
  return {
    name: 'palisade:build-guards',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        const file = {
          fileName: output.fileName,
          moduleIds: output.type === 'chunk' ? output.moduleIds : [],
        };
        for (const { find, failure } of BUILD_GUARDS) {
          const found = find(file);
          if (found !== undefined) this.error(`${failure}: ${found}`);
        }
      }
    },
  };
}

/**
 * The pre-painted frame's texts (src/app/prepaint): `virtual:prepaint-texts` holds the
 * PREPAINT_TEXT_KEYS translations of each language, read from the locale files, so the entry
 * script carries a few strings, not the locales (en's alone is 55 KB).
 */
function prepaintTexts(): Plugin {
  const resolvedId = `\0${PREPAINT_TEXTS_MODULE}`;
  const localeFile = (language: string) =>
    fileURLToPath(new URL(`./src/locales/${language}.json`, import.meta.url));
  return {
    name: 'palisade:prepaint-texts',
    resolveId: (id) => (id === PREPAINT_TEXTS_MODULE ? resolvedId : undefined),
    load(id) {
      if (id !== resolvedId) return undefined;
      const texts: Record<string, Record<string, string>> = {};
      for (const language of LANGUAGES) {
        this.addWatchFile(localeFile(language));
        const locale: unknown = JSON.parse(readFileSync(localeFile(language), 'utf8'));
        texts[language] = {};
        for (const key of PREPAINT_TEXT_KEYS) {
          const value = key
            .split('.')
            .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], locale);
          if (typeof value !== 'string') this.error(`${language}.json has no text for ${key}`);
          texts[language][key] = value;
        }
      }
      return `export default ${JSON.stringify(texts)};`;
    },
  };
}

/**
 * index.html fetches the console's scripts (src/app/start.tsx and what it imports) with the
 * entry, as modulepreload links: the entry imports start only after its frame is painted, and
 * the browser then evaluates what it has already fetched.
 */
function preloadConsole(): Plugin {
  return {
    name: 'palisade:preload-console',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (bundle === undefined) return [];
        const chunks = Object.values(bundle).flatMap((output) =>
          output.type === 'chunk' ? [output] : [],
        );
        const start = chunks.find((chunk) =>
          /[\\/]src[\\/]app[\\/]start\.tsx$/.test(chunk.facadeModuleId ?? ''),
        );
        if (start === undefined) throw new Error('the build has no chunk for src/app/start.tsx');
        const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const files = new Set<string>();
        const visit = (fileName: string) => {
          const chunk = byName.get(fileName);
          // The entry is index.html's own script already.
          if (files.has(fileName) || chunk === undefined || chunk.isEntry) return;
          files.add(fileName);
          for (const imported of chunk.imports) visit(imported);
        };
        visit(start.fileName);
        return [...files].map((fileName) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

export default defineConfig(({ mode }) => {
  const common = {
    // Vite's own conditions must stay beside ours: without 'module' and 'browser' the build
    // took packages' CommonJS builds where they have browser ESM ones (emotion's), and
    // 'development|production' picks a package's production build where it ships one.
    resolve: {
      conditions: ['palisade-source', ...defaultClientConditions],
      // MUI's number formatter, made lazy (see the module): its TablePagination made one when
      // the kit's scripts ran, before any list page's first paint.
      alias: [{ find: MUI_FORMAT_NUMBER, replacement: LAZY_FORMAT_NUMBER }],
    },
    server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
  };
  if (mode === 'bench') {
    return {
      ...common,
      plugins: [react(), prepaintTexts()],
      build: { outDir: 'dist-bench', rolldownOptions: { input: 'bench.html' } },
    };
  }
  return {
    ...common,
    plugins: [
      react(),
      prepaintTexts(),
      preloadConsole(),
      buildGuards(),
      // name.br and name.gz beside each text asset over 1 KB, at the plugin's default (highest)
      // levels, once at build time; the server sends the one the browser accepts
      // (@fastify/static preCompressed). Source maps are left as they are.
      compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 }),
    ],
    // Source maps are emitted but served only with SERVE_SOURCEMAPS=true (server config).
    build: {
      outDir: 'dist',
      sourcemap: true,
      manifest: true,
      // Fewer chunks. Split as it chose, the build made a signed-in page load 75 files; a
      // browser fetches at most six at a time from one HTTP/1.1 server, and the session check
      // queued behind them. Two groups: the libraries the console starts with (CONSOLE_START,
      // also /login's, within its budget), and the component kit that every signed-in screen uses (MUI, emotion, TanStack
      // Query). Each screen and the rest stay as split. Measured against the default split:
      // docs/ARCHITECTURE.md, "Web performance".
      rolldownOptions: {
        // The contract's modules define schemas and nothing else (its registry entries are for
        // the server's OpenAPI document): a screen takes the schemas it uses, not all of them.
        // Built as one chunk, /devices evaluated every schema before its first paint: 470 ms
        // of 6 s under 4× CPU throttling, 150 ms with these. Only the contract calls a function
        // named z at its top level (checked by comparing each module's output size).
        treeshake: {
          moduleSideEffects: (id: string) =>
            /packages[\\/]contract[\\/]src[\\/]/.test(id) ? false : undefined,
          manualPureFunctions: ['z'],
        },
        output: {
          codeSplitting: {
            groups: [
              { name: 'boot', test: CONSOLE_START, priority: 2 },
              { name: 'kit', test: SIGNED_IN_KIT, priority: 1 },
            ],
          },
        },
      },
    },
  };
});
