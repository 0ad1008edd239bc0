import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import {
  ROUTE_MODULES,
  WORKSPACE_MODULES,
  WORKSPACE_CHUNKS_FILE,
  WORKSPACE_PROVIDERS_MODULE,
} from './src/client/app/routeModules.js';

const outDir = path.resolve('dist/client');

/**
 * Writes name.br and name.gz beside every text file of the build, so the server sends them as
 * they are (no compression work per request). Brotli at its best quality: it runs once per build.
 */
function precompress(): Plugin {
  let outputDir = outDir;
  return {
    name: 'medledger-precompress',
    apply: 'build',
    // The folder actually written to (`vite build --outDir` may name another).
    writeBundle(options) {
      outputDir = options.dir ?? outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
          const full = path.join(dir, entry.name);
          return entry.isDirectory() ? walk(full) : [full];
        });
      for (const file of walk(outputDir)) {
        if (!/\.(js|css|html|svg|json|txt)$/.test(file)) continue;
        const body = fs.readFileSync(file);
        if (body.length < 1024) continue;
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(body, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        );
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
      }
    },
  };
}

/**
 * Writes, for each path of ROUTE_MODULES (src/client/app/routeModules.ts), a copy of index.html
 * that also names the chunks of that path's page as <link rel="modulepreload"> (and its
 * stylesheets): the chunks Vite's preload helper would otherwise add when the page is first
 * rendered, after the entry has loaded and run. For each path of WORKSPACE_MODULES, a copy that
 * names them inside <template id="page-chunks">, for the entry to add a few at a time, and all
 * those lists in workspace-chunks.json, for a sign-in form to add its workspace's.
 */
function routePages(): Plugin {
  return {
    name: 'medledger-route-pages',
    apply: 'build',
    writeBundle(options, bundle) {
      const outputDir = options.dir ?? outDir;
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const byModule = new Map(
        chunks
          .filter((chunk) => chunk.facadeModuleId)
          .map((chunk) => [path.relative(path.resolve('src/client'), chunk.facadeModuleId!), chunk]),
      );
      // A chunk and everything it imports statically: what has to load before it runs.
      const closure = (files: string[]) => {
        const seen = new Set<string>();
        const visit = (file: string) => {
          if (seen.has(file)) return;
          seen.add(file);
          for (const imported of byFile.get(file)!.imports) visit(imported);
        };
        files.forEach(visit);
        return [...seen];
      };
      const inIndex = new Set(closure(chunks.filter((chunk) => chunk.isEntry).map((c) => c.fileName)));
      const index = fs.readFileSync(path.join(outputDir, 'index.html'), 'utf8');
      const pageChunk = (route: string, module: string) => {
        const page = byModule.get(module);
        if (!page?.isDynamicEntry) throw new Error(`${route}: ${module} is not a lazily loaded chunk`);
        return page.fileName;
      };
      // /signup → routes/signup.html: the server (app.ts, routePagesIn) reads them back this way.
      const write = (route: string, extraHead: string) => {
        const target = path.join(outputDir, 'routes', `${route}.html`);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, index.replace('</head>', `  ${extraHead}\n  </head>`));
      };
      const preload = (file: string) => `<link rel="modulepreload" crossorigin href="/${file}">`;
      for (const [route, module] of Object.entries(ROUTE_MODULES)) {
        const files = closure([pageChunk(route, module)]).filter((file) => !inIndex.has(file));
        const css = new Set(
          files.flatMap((file) => [...(byFile.get(file)!.viteMetadata?.importedCss ?? [])]),
        );
        const links = [
          ...files.map(preload),
          ...[...css]
            .filter((file) => !index.includes(`/${file}"`))
            .map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
        ];
        write(route, links.join('\n    '));
      }
      // A workspace's chunks, inert until the entry adds them (routeModules.ts, pageChunks.ts); its
      // stylesheets are left to Vite's helper, which waits for them before the page renders. The
      // same lists in workspace-chunks.json, for a sign-in page to add while the password is checked.
      const workspaceChunks: Record<string, string[]> = {};
      for (const [route, module] of Object.entries(WORKSPACE_MODULES)) {
        const pages = [pageChunk(route, module), pageChunk(route, WORKSPACE_PROVIDERS_MODULE)];
        const files = closure(pages).filter((file) => !inIndex.has(file));
        write(route, `<template id="page-chunks">${files.map(preload).join('')}</template>`);
        workspaceChunks[route] = files.map((file) => `/${file}`);
      }
      fs.writeFileSync(path.join(outputDir, WORKSPACE_CHUNKS_FILE), JSON.stringify(workspaceChunks));
    },
  };
}

/** Mantine's global stylesheets, which no component module names. */
const MANTINE_GLOBAL_STYLES = ['baseline', 'default-css-variables', 'global'];

/**
 * The per-component stylesheets of @mantine/core, in the order its styles.css has them (that file is
 * their concatenation; later rules win over earlier ones of the same weight).
 */
function mantineStylesOrder(): string[] {
  const core = path.resolve('node_modules/@mantine/core');
  const whole = fs.readFileSync(path.join(core, 'styles.css'), 'utf8');
  const position = new Map(
    fs
      .readdirSync(path.join(core, 'styles'))
      .filter((file) => file.endsWith('.css') && !file.endsWith('.layer.css'))
      .map((file) => {
        const text = fs.readFileSync(path.join(core, 'styles', file), 'utf8').trim();
        return [file.slice(0, -'.css'.length), whole.indexOf(text)] as const;
      }),
  );
  const unplaced = [...position].filter(([, at]) => at < 0).map(([name]) => name);
  if (unplaced.length) throw new Error(`@mantine/core/styles.css does not contain ${unplaced.join(', ')}`);
  return [...position.keys()].sort((a, b) => position.get(a)! - position.get(b)!);
}

/**
 * Keeps src/client/mantine-styles.css exact: it imports Mantine's global stylesheets and those of
 * the components the build bundles (a component's classes come from its Name.module.mjs), in
 * Mantine's order. The build fails, saying what to add, remove or reorder, when it does not.
 */
function mantineStyles(): Plugin {
  const file = path.resolve('src/client/mantine-styles.css');
  return {
    name: 'medledger-mantine-styles',
    apply: 'build',
    generateBundle(_options, bundle) {
      const used = new Set(MANTINE_GLOBAL_STYLES);
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        for (const id of item.moduleIds) {
          const component = /@mantine[\\/]core[\\/]esm[\\/].*[\\/](\w+)\.module\.mjs$/.exec(id)?.[1];
          if (component) used.add(component);
        }
      }
      const imported = [
        ...fs.readFileSync(file, 'utf8').matchAll(/^@import '@mantine\/core\/styles\/([\w-]+)\.css';$/gm),
      ].map((match) => match[1]);
      const wanted = mantineStylesOrder().filter((name) => used.has(name));
      if (imported.join() === wanted.join()) return;
      const missing = wanted.filter((name) => !imported.includes(name));
      const unused = imported.filter((name) => !wanted.includes(name));
      this.error(
        [
          `${path.relative('.', file)} does not match the Mantine components the app uses.`,
          missing.length ? `Add: ${missing.join(', ')}.` : '',
          unused.length ? `Remove: ${unused.join(', ')}.` : '',
          `Expected, in this order: ${wanted.join(', ')}.`,
        ]
          .filter(Boolean)
          .join(' '),
      );
    },
  };
}

/**
 * Resolves @mantine/hooks' own use-id module to src/client/mantineUseId.ts (why: that file). In the
 * build only: the development server pre-bundles Mantine, which then keeps its own.
 */
function mantineStableIds(): Plugin {
  const replacement = path.resolve('src/client/mantineUseId.ts');
  return {
    name: 'medledger-mantine-stable-ids',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      const fromMantineHooks = importer && /@mantine[\\/]hooks[\\/]esm[\\/]index\.mjs$/.test(importer);
      return fromMantineHooks && source === './use-id/use-id.mjs' ? replacement : null;
    },
  };
}

// The client is built to dist/client and served by the Fastify server; in dev, /api is proxied.
export default defineConfig(({ command }) => ({
  plugins: [mantineStableIds(), react(), mantineStyles(), routePages(), precompress()],
  root: 'src/client',
  publicDir: false,
  build: {
    outDir,
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // What the entry imports statically loads with it anyway: one file instead of eleven.
        // Measured with bench:web (Lighthouse counts each request's round trip on HTTP/1.1): the
        // landing page's JavaScript went from 125 to 113 KB (one file compresses better), the
        // sign-up page's from 162 to 150 KB.
        codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  // React Router 7's package exports resolve to its development build in every mode (its issue
  // #14102), with its development warnings on; the build takes its production build instead.
  resolve:
    command === 'build'
      ? {
          alias: [
            {
              find: /^react-router$/,
              replacement: path.resolve('node_modules/react-router/dist/production/index.mjs'),
            },
          ],
        }
      : undefined,
}));
