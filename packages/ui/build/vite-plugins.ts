import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Plugin, Rolldown } from 'vite';

// The build steps of the apps: Brotli and gzip copies beside every asset, the font preload, the
// section pages that preload their code, and V8's compile hint on the first screen's chunks.

/** Text files worth compressing (fonts and images are compressed formats already). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a Brotli (.br, best quality) and a gzip (.gz) copy beside every compressible file of the
 * build, once: the server sends them as they are (@fastify/static's preCompressed) instead of
 * compressing on every request. A copy that would not be smaller is not written.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const raw = readFileSync(file);
        if (raw.length < 256) continue;
        const br = brotliCompressSync(raw, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
        });
        const gz = gzipSync(raw, { level: 9 });
        if (br.length < raw.length) writeFileSync(`${file}.br`, br);
        if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

/**
 * Preloads the latin subset of the shipped Inter font from index.html: the browser fetches it
 * beside the stylesheet instead of after it, so that text shows in Inter from the first paint.
 */
export function preloadFont(): Plugin {
  return {
    name: 'portal-preload-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const font = Object.keys(ctx.bundle ?? {}).find((f) => /inter-latin-wght-normal-[\w-]+\.woff2$/.test(f));
        if (!font) return [];
        return [
          {
            tag: 'link',
            attrs: { rel: 'preload', href: `/${font}`, as: 'font', type: 'font/woff2', crossorigin: '' },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

/**
 * Writes `file`, a copy of index.html that also preloads a lazily loaded module (`entry`, its path
 * under the app's root) with the chunks and styles it imports. The server answers it for the pages
 * that always need that module (the signed-in shell under /app): on a cold load the browser fetches
 * that code beside the first script, instead of in a second round once the first has run.
 */
export function sectionPage(entry: string, file: string): Plugin {
  const wanted = entry.replace(/\\/g, '/');
  return {
    name: 'portal-section-page',
    apply: 'build',
    writeBundle(options, bundle) {
      const index = bundle['index.html'];
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const root = chunks.find((c) => c.facadeModuleId?.replace(/\\/g, '/').endsWith(wanted));
      if (!index || index.type !== 'asset' || !root) throw new Error(`sectionPage: no index.html or no chunk for ${entry}`);
      // The chunk and every chunk it imports statically, but the first screen's own (already in index.html).
      const scripts = new Set<string>();
      const styles = new Set<string>();
      const visit = (name: string) => {
        const chunk = bundle[name];
        if (!chunk || chunk.type !== 'chunk' || chunk.isEntry || scripts.has(name)) return;
        scripts.add(name);
        for (const css of chunk.viteMetadata?.importedCss ?? []) styles.add(css);
        chunk.imports.forEach(visit);
      };
      visit(root.fileName);
      const links = [
        ...[...styles].map((f) => `<link rel="preload" as="style" crossorigin href="/${f}">`),
        ...[...scripts].map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
      ].join('\n    ');
      const html = String(index.source).replace('</head>', `  ${links}\n  </head>`);
      writeFileSync(path.join(options.dir ?? '', file), html);
    },
  };
}

/** V8's explicit compile hint (Chrome 136+): compile every function of the file eagerly. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Puts V8's compile hint on the first line of the chunks `wanted` picks: the browser compiles
 * their functions while the file downloads, off the main thread, instead of one by one on the main
 * thread when each is first called (most of the first screen's code is called at once). Done on
 * the written files, after every other step of the build, so that the hint comes first; their
 * source maps move down the one line.
 */
export function compileHints(wanted: (chunk: Rolldown.OutputChunk) => boolean): Plugin {
  return {
    name: 'portal-compile-hints',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !wanted(chunk)) continue;
        const file = path.join(options.dir ?? '', chunk.fileName);
        writeFileSync(file, `${COMPILE_HINT}\n${readFileSync(file, 'utf8')}`);
        if (!existsSync(`${file}.map`)) continue;
        const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { mappings: string };
        map.mappings = `;${map.mappings}`;
        writeFileSync(`${file}.map`, JSON.stringify(map));
      }
    },
  };
}
