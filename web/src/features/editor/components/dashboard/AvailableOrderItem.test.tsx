import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { SWRConfig } from 'swr';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../../../app/AppProviders';
import { fakeApi } from '../../../../test/fake-api';
import { fakeFirebase } from '../../../../test/fake-firebase-auth';
import { aMeView } from '../../../../test/me-view';
import { anOrderSummary } from '../../../../test/order-views';
import { AvailableOrderItem } from './AvailableOrderItem';

const renderItem = (order: Parameters<typeof AvailableOrderItem>[0]['order']) => {
  const router = createMemoryRouter([{ path: '/', element: <AvailableOrderItem order={order} /> }]);
  render(
    <AppProviders>
      <SWRConfig value={{ provider: () => new Map() }}>
        <ul>
          <RouterProvider router={router} />
        </ul>
      </SWRConfig>
    </AppProviders>,
  );
};

describe('an order on offer', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'eden@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: 'eden@example.com', roles: ['editor'] }) });
  });

  it("reads its add-ons as '+ Virtual staging ×3', each with its photos", () => {
    renderItem({
      ...anOrderSummary({
        addOns: [
          {
            addOnId: 'virtual-staging',
            name: 'Virtual staging',
            pricePerPhotoCents: 2400,
            photoCount: 3,
            amountCents: 7200,
          },
          {
            addOnId: 'sky-replacement',
            name: 'Sky replacement',
            pricePerPhotoCents: 200,
            photoCount: 1,
            amountCents: 200,
          },
        ],
      }),
      potentialEarningsCents: 5000,
      assignedToMe: false,
      editingStyleSummary: null,
    });
    expect(screen.getByText('+ Virtual staging ×3 + Sky replacement ×1')).toBeInTheDocument();
  });

  it('says nothing of add-ons when it has none', () => {
    renderItem({ ...anOrderSummary(), potentialEarningsCents: 450, assignedToMe: false, editingStyleSummary: null });
    expect(screen.queryByText(/^\+ /)).toBeNull();
  });
});
