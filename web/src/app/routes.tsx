import type { Role } from '@marketplace/events/roles';
import { Navigate, type RouteObject } from 'react-router';
import { PageLoader } from '../components/PageLoader';
import { RouteErrorPage } from './RouteErrorPage';

const photographersOnly: Role[] = ['photographer'];
const editorsOnly: Role[] = ['editor'];
const adminsOnly: Role[] = ['admin'];

/** The guard of the signed-in pages, loaded with them: a visitor to /login never needs it. */
const protectedBy = (allowedRoles?: readonly Role[]): Pick<RouteObject, 'lazy'> => ({
  lazy: () =>
    import('./ProtectedPage').then(({ ProtectedPage }) => ({ element: <ProtectedPage allowedRoles={allowedRoles} /> })),
});

/**
 * THE route table of the web app. Every page is loaded on demand, so a first visit to /login
 * downloads only the login page and what every page shares.
 */
export const routes: RouteObject[] = [
  {
    hydrateFallbackElement: <PageLoader fullScreen />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        path: '/login',
        lazy: () => import('../features/auth/routes/LoginPage').then((m) => ({ Component: m.LoginPage })),
      },
      {
        path: '/signup',
        lazy: () => import('../features/auth/routes/LoginPage').then((m) => ({ Component: m.LoginPage })),
      },
      {
        path: '/invitation',
        lazy: () =>
          import('../features/invitation/routes/InvitationPage').then((m) => ({ Component: m.InvitationPage })),
      },
      {
        path: '/info',
        lazy: () => import('../features/info/routes/InfoPage').then((m) => ({ Component: m.InfoPage })),
      },
      // An email change's link, opened from the new address's mailbox (signed in or not).
      {
        path: '/account/confirm-email',
        lazy: () =>
          import('../features/profile/routes/ConfirmEmailPage').then((m) => ({ Component: m.ConfirmEmailPage })),
      },
      // An email's 'Unsubscribe' link: no sign-in, the link's token names the account and the email.
      {
        path: '/unsubscribe',
        lazy: () =>
          import('../features/unsubscribe/routes/UnsubscribePage').then((m) => ({ Component: m.UnsubscribePage })),
      },
      // Where 'Delete my account' lands, signed out.
      {
        path: '/account-deleted',
        lazy: () =>
          import('../features/profile/routes/AccountDeletedPage').then((m) => ({ Component: m.AccountDeletedPage })),
      },
      // A client's gallery, opened from a share link without an account.
      {
        path: '/share/:token',
        lazy: () => import('../features/share/routes/SharePage').then((m) => ({ Component: m.SharePage })),
      },
      {
        lazy: () => import('./SignedInLayout').then((m) => ({ Component: m.SignedInLayout })),
        children: [
          { path: '/', element: <Navigate to="/dashboard" replace /> },
          {
            ...protectedBy(photographersOnly),
            children: [
              {
                path: '/dashboard',
                lazy: () =>
                  import('../features/photographer/routes/DashboardPage').then((m) => ({ Component: m.DashboardPage })),
              },
              {
                path: '/create-order',
                lazy: () =>
                  import('../features/photographer/routes/CreateOrderPage').then((m) => ({
                    Component: m.CreateOrderPage,
                  })),
              },
              {
                path: '/orders',
                lazy: () => import('../features/orders/routes/OrdersPage').then((m) => ({ Component: m.OrdersPage })),
              },
              {
                path: '/orders/:orderId/payment',
                lazy: () =>
                  import('../features/orders/routes/OrderPaymentPage').then((m) => ({ Component: m.OrderPaymentPage })),
              },
            ],
          },
          {
            ...protectedBy(editorsOnly),
            children: [
              {
                path: '/editor',
                lazy: () =>
                  import('../features/editor/routes/EditorDashboardPage').then((m) => ({
                    Component: m.EditorDashboardPage,
                  })),
              },
              {
                path: '/editor/orders/:orderId',
                lazy: () =>
                  import('../features/editor/routes/EditorOrderPage').then((m) => ({ Component: m.EditorOrderPage })),
              },
              {
                // Stripe's onboarding comes back here when its link expired or was left for later.
                path: '/profile/payouts/refresh',
                lazy: () =>
                  import('../features/profile/routes/PayoutRefreshPage').then((m) => ({
                    Component: m.PayoutRefreshPage,
                  })),
              },
            ],
          },
          {
            ...protectedBy(adminsOnly),
            children: [
              {
                path: '/admin',
                lazy: () =>
                  import('../features/admin/routes/AdminDashboardPage').then((m) => ({
                    Component: m.AdminDashboardPage,
                  })),
              },
            ],
          },
          {
            ...protectedBy(),
            children: [
              {
                path: '/orders/:orderId',
                lazy: () =>
                  import('../features/orders/routes/OrderDetailPage').then((m) => ({ Component: m.OrderDetailPage })),
              },
              {
                path: '/jobs/:jobId',
                lazy: () => import('../features/jobs/routes/JobPage').then((m) => ({ Component: m.JobPage })),
              },
              {
                path: '/profile',
                lazy: () =>
                  import('../features/profile/routes/ProfilePage').then((m) => ({ Component: m.ProfilePage })),
              },
              {
                path: '/feedback',
                lazy: () =>
                  import('../features/feedback/routes/FeedbackPage').then((m) => ({ Component: m.FeedbackPage })),
              },
            ],
          },
        ],
      },
      { path: '*', lazy: () => import('./NotFoundPage').then((m) => ({ Component: m.NotFoundPage })) },
    ],
  },
];
