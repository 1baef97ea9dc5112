import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, parsePath, RouterProvider } from 'react-router';
import { SWRConfig } from 'swr';
import { AppProviders } from '../app/AppProviders';
import { routes } from '../app/routes';

/** Renders the whole app, real route table included, at a path (with its query, if any); each test gets its own data cache. */
export function renderApp(path: string, { state }: { state?: unknown } = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [{ ...parsePath(path), state }] });
  const user = userEvent.setup();
  const view = render(
    <AppProviders>
      <SWRConfig value={{ provider: () => new Map() }}>
        <RouterProvider router={router} />
      </SWRConfig>
    </AppProviders>,
  );
  return { ...view, user, router };
}
