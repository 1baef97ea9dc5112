import { Anchor } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

export function OrderDetailPage() {
  const { orderId } = useParams();
  return (
    <>
      <PageHeader title="Order" description={orderId ? `Order reference ${orderId}` : undefined} />
      <EmptyState
        title="Nothing here yet"
        action={
          <Anchor component={Link} to="/dashboard">
            Back to dashboard
          </Anchor>
        }
      >
        Order details, progress and downloads will show here.
      </EmptyState>
    </>
  );
}
