import { Grid, Stack } from '@mantine/core';
import { PageHeader } from '../../../components/PageHeader';
import { AvailableOrders } from '../components/dashboard/AvailableOrders';
import { EditorStatsOverview } from '../components/dashboard/EditorStatsOverview';
import { MyAssignments } from '../components/dashboard/MyAssignments';

export function EditorDashboardPage() {
  return (
    <>
      <PageHeader title="Editor Dashboard" description="Available orders, your assignments and your earnings." />
      <Stack gap="xl">
        <EditorStatsOverview />
        <Grid gutter="xl">
          <Grid.Col span={{ base: 12, lg: 8 }}>
            <AvailableOrders />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 4 }}>
            <MyAssignments />
          </Grid.Col>
        </Grid>
      </Stack>
    </>
  );
}
