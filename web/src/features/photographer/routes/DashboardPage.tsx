import { Button, Stack } from '@mantine/core';
import { IconCirclePlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { RecentOrders } from '../components/dashboard/RecentOrders';
import { StatsOverview } from '../components/dashboard/StatsOverview';

export function DashboardPage() {
  const createOrder = (
    <Button component={Link} to="/create-order" leftSection={<IconCirclePlus size={18} aria-hidden="true" />}>
      Create New Order
    </Button>
  );
  return (
    <>
      <PageHeader title="Dashboard" description="Your orders and spending at a glance." actions={createOrder} />
      <Stack gap="xl">
        <StatsOverview />
        <RecentOrders />
      </Stack>
    </>
  );
}
