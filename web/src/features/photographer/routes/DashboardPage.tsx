import { Button } from '@mantine/core';
import { IconCirclePlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

export function DashboardPage() {
  const createOrder = (
    <Button component={Link} to="/create-order" leftSection={<IconCirclePlus size={18} aria-hidden="true" />}>
      Create New Order
    </Button>
  );
  return (
    <>
      <PageHeader title="Dashboard" description="Your orders and spending at a glance." actions={createOrder} />
      <EmptyState title="Nothing here yet">
        Your orders, photo counts and spending will show here once you have placed an order.
      </EmptyState>
    </>
  );
}
