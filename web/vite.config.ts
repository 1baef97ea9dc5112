import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiProxy = { '/api': { target: process.env.API_PROXY_TARGET ?? 'http://localhost:3000', changeOrigin: true } };

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  server: { port: 5173, strictPort: true, proxy: apiProxy },
  preview: { port: Number(process.env.WEB_PORT ?? 4173), strictPort: true, proxy: apiProxy },
  build: { outDir: 'dist' },
});
