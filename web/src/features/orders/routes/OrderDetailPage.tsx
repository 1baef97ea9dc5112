import { Alert, Anchor, Button, Grid, Group, Paper, Stack, Title } from '@mantine/core';
import { type OrderDetailView, orderDisplayName } from '@marketplace/events/orders';
import { IconArrowLeft, IconCirclePlus, IconCreditCard } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { Link, useParams } from 'react-router';
import { LateBadge, OrderStatusBadge } from '../../../components/OrderStatusBadge';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoader, SectionLoader } from '../../../components/PageLoader';
import { ApiError } from '../../../lib/api-client';
import { useOrder } from '../api/use-order';
import { AssignedEditorCard } from '../components/AssignedEditorCard';
import { DeliveryDownloads } from '../components/DeliveryDownloads';
import { EditingStyleCard } from '../components/EditingStyleCard';
import { MlsSizePanel } from '../components/MlsSizePanel';
import { OrderGallery } from '../components/OrderGallery';
import { OrderReceipts } from '../components/OrderReceipts';
import { OrderSummary } from '../components/OrderSummary';
import { OrderTimeline } from '../components/OrderTimeline';
import { PhotoStatus } from '../components/PhotoStatus';
import { RevisionHistory } from '../components/RevisionHistory';
import { RevisionRequestAction } from '../components/RevisionRequestAction';
import { ShareLinksPanel } from '../components/ShareLinksPanel';

// Drag and drop loads only for an order with photos to arrange.
const ListingSequencePanel = lazy(() =>
  import('../components/ListingSequencePanel').then((m) => ({ default: m.ListingSequencePanel })),
);

// Drawing marks on the photos loads only on an order page, never with the rest of the app.
const OrderMarksPanel = lazy(() => import('../../marks/components/OrderMarksPanel'));
// Add-ons on chosen photos: picked while the order awaits payment, listed once it is paid.
const OrderAddOnsPanel = lazy(() => import('../../add-ons/components/OrderAddOnsPanel'));

const backToDashboard = (
  <Anchor component={Link} to="/dashboard" fz="sm" fw={600}>
    <Group gap={4} component="span" wrap="nowrap">
      <IconArrowLeft size={16} aria-hidden="true" />
      Back to Dashboard
    </Group>
  </Anchor>
);

function OrderActionsPanel({ order }: { order: OrderDetailView }) {
  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="order-actions-heading">
      <Title order={2} fz="lg" id="order-actions-heading" mb="md">
        Actions
      </Title>
      <Stack gap="sm">
        <DeliveryDownloads order={order} />
        <OrderReceipts order={order} />
        <RevisionRequestAction order={order} />
        {order.status === 'pending_payment' && (
          <Button
            component={Link}
            to={`/orders/${order.id}/payment`}
            color="red.9"
            fullWidth
            leftSection={<IconCreditCard size={18} aria-hidden="true" />}
          >
            Complete Payment
          </Button>
        )}
        <Button
          component={Link}
          to="/create-order"
          variant="default"
          fullWidth
          leftSection={<IconCirclePlus size={18} aria-hidden="true" />}
        >
          Create New Order
        </Button>
      </Stack>
    </Paper>
  );
}

// A malformed id (400) names no order either; someone else's order answers 404 like a missing one.
const isMissing = (error: unknown) => error instanceof ApiError && [400, 403, 404].includes(error.status);

export function OrderDetailPage() {
  const { orderId } = useParams();
  const { data: order, error, isLoading, mutate } = useOrder(orderId);

  if (isLoading || (!error && !order)) return <PageLoader label="Loading the order…" />;
  if (isMissing(error)) {
    return (
      <Stack gap="md" align="flex-start">
        <PageHeader
          title="Order Not Found"
          description="The order you're looking for doesn't exist or you don't have access to it."
          mb={0}
        />
        {backToDashboard}
      </Stack>
    );
  }
  if (error || !order) {
    return (
      <>
        <PageHeader title="Order" />
        <Stack gap="md" align="flex-start">
          <Alert color="red">This order could not be loaded. Please try again later.</Alert>
          {backToDashboard}
        </Stack>
      </>
    );
  }

  return (
    <Stack gap="lg">
      <div>{backToDashboard}</div>
      <PageHeader
        title={orderDisplayName(order)}
        description={order.name ? `Order #${order.orderNumber} · ${order.jobTypeName}` : order.jobTypeName}
        mb={0}
        actions={
          <Group gap="xs">
            <OrderStatusBadge status={order.status} size="lg" />
            {order.isLate && <LateBadge size="lg" />}
          </Group>
        }
      />
      <Grid gutter="lg">
        {/* Side by side only from 1200 px, where the actions column is wide enough for its labels. */}
        <Grid.Col span={{ base: 12, lg: 7, xl: 8 }} order={{ base: 2, lg: 1 }}>
          <Stack gap="lg">
            <OrderSummary order={order} />
            <PhotoStatus
              photoCount={order.photoCount}
              originals={order.photographerUploadCount}
              edited={order.editorUploadCount}
            />
            {order.status === 'completed' && (
              <Suspense fallback={<SectionLoader label="Loading the listing order" />}>
                <ListingSequencePanel orderId={order.id} />
              </Suspense>
            )}
            {order.status === 'completed' && <MlsSizePanel orderId={order.id} />}
            <OrderGallery order={order} />
            {order.status !== 'pending_payment' && <EditingStyleCard order={order} viewer="photographer" />}
            <Suspense fallback={<SectionLoader label="Loading the add-ons" />}>
              <OrderAddOnsPanel order={order} viewer="photographer" onPriced={() => void mutate()} />
            </Suspense>
            <Suspense fallback={<SectionLoader label="Loading the marks on the photos" />}>
              <OrderMarksPanel order={order} viewer="photographer" />
            </Suspense>
            <RevisionHistory revisions={order.revisions} />
            <OrderTimeline order={order} />
          </Stack>
        </Grid.Col>
        {/* On a phone and a tablet the actions come first, so Download and Pay need no scrolling. */}
        <Grid.Col span={{ base: 12, lg: 5, xl: 4 }} order={{ base: 1, lg: 2 }}>
          <Stack gap="lg">
            <OrderActionsPanel order={order} />
            {order.status === 'completed' && <ShareLinksPanel orderId={order.id} />}
            <AssignedEditorCard order={order} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
