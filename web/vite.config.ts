// The dashboard's build: React + Tailwind, hashed assets and a manifest (read by the size check and
// bench/dashboard.ts), served by Herald from web/dist (src/web/serve.ts).
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/** Preloads the one font file every page uses (Inter, latin), so text does not reflow. */
function preloadFont(): Plugin {
  return {
    name: 'herald-preload-font',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const font = Object.keys(ctx.bundle ?? {}).find((file) => /inter-latin-wght-normal.*\.woff2$/.test(file));
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

// Herald for `npm run web:dev` (HERALD_PUBLIC_URL=http://localhost:5173 so the session's Origin check passes).
const herald = process.env.HERALD_DEV_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react(), tailwindcss(), preloadFont()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    // Fonts and icons as files, never data: URLs (the CSP's font-src is 'self').
    assetsInlineLimit: 0,
    target: 'es2022',
    reportCompressedSize: false,
  },
  server: {
    proxy: Object.fromEntries(['/api', '/admin'].map((path) => [path, { target: herald }])),
  },
});
