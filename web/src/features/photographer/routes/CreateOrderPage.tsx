import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

export function CreateOrderPage() {
  return (
    <>
      <PageHeader title="Create Order" description="Choose a service, upload your photos and pay per photo." />
      <EmptyState title="Nothing here yet">
        Ordering is not open yet. This is where you will place new orders.
      </EmptyState>
    </>
  );
}
