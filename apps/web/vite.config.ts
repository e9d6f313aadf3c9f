import { defaultClientConditions, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

/** The benchmark pages (bench.html, src/app/bench/): built only with `--mode bench`. */
const BENCH_SOURCES = '/src/app/bench/';

/** Fails the production build if benchmark code found its way into it. */
function noBenchCode(): Plugin {
  return {
    name: 'palisade:no-bench-code',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        const modules = output.type === 'chunk' ? output.moduleIds : [];
        const leaked = modules.find((id) => id.includes(BENCH_SOURCES));
        if (leaked !== undefined || output.fileName.includes('bench')) {
          this.error(`benchmark code in the production build: ${leaked ?? output.fileName}`);
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
    resolve: { conditions: ['palisade-source', ...defaultClientConditions] },
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
      noBenchCode(),
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
      // Few, larger chunks. Split as it chose, the build made a signed-in page load 75 files,
      // and a browser fetches at most six at a time from one HTTP/1.1 server: the session
      // check queued behind them, and /devices painted ~10% later. Now: what the entry needs
      // (also /login's, within its budget), the libraries behind the signed-in screens, and
      // the console's own shared components, each one chunk; each screen stays its own.
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              { name: 'boot', tags: ['$initial'], priority: 3 },
              { name: 'kit', test: /node_modules/, priority: 2 },
              {
                name: 'shared',
                test: /apps[\\/]web[\\/]src[\\/](components|lib)[\\/]/,
                priority: 1,
              },
            ],
          },
        },
      },
    },
  };
});
