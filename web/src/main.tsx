import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import * as z from 'zod/mini';
import { AppProviders } from './app/AppProviders';
import { routes } from './app/routes';

// No eval probe: the site's content security policy refuses eval, and zod validates as fast without it at these sizes.
z.config({ jitless: true });

const router = createBrowserRouter(routes);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
