import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The client is built to dist/client and served by the Fastify server; in dev, /api is proxied.
export default defineConfig({
  plugins: [react()],
  root: 'src/client',
  publicDir: false,
  build: { outDir: '../../dist/client', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
