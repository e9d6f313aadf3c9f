import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

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
      plugins: [react()],
      build: { outDir: 'dist-bench', rolldownOptions: { input: 'bench.html' } },
    };
  }
  return {
    ...common,
    plugins: [
      react(),
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
      // queued behind them. Two groups: what the entry needs (also /login's, within its
      // budget), and the component kit that every signed-in screen uses (MUI, emotion, TanStack
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
              { name: 'boot', tags: ['$initial'], priority: 2 },
              { name: 'kit', test: SIGNED_IN_KIT, priority: 1 },
            ],
          },
        },
      },
    },
  };
});
