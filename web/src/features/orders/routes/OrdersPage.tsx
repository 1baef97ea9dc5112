import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

export function OrdersPage() {
  return (
    <>
      <PageHeader title="All Orders" />
      <EmptyState title="Nothing here yet">Every order you place will be listed here.</EmptyState>
    </>
  );
}
