import { Alert, Anchor, Button, Group, Stack, Tabs } from '@mantine/core';
import { type OrderDetailView, orderDisplayName } from '@marketplace/events/orders';
import { IconArrowLeft, IconHistory, IconPhoto } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import { LateBadge, OrderStatusBadge } from '../../../components/OrderStatusBadge';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoader, SectionLoader } from '../../../components/PageLoader';
import { ApiError } from '../../../lib/api-client';
import type { AuthUser } from '../../../lib/auth';
import { useAuth } from '../../../lib/auth-context';
import { EditingStyleCard } from '../../orders/components/EditingStyleCard';
import { useEditorOrder } from '../api/use-editor-order';
import { ActivityLog } from '../components/order/ActivityLog';
import { ImagesTab } from '../components/order/ImagesTab';
import { MarkCompleteButton } from '../components/order/MarkCompleteButton';
import { OrderFacts } from '../components/order/OrderFacts';
import { RevisionPanel } from '../components/order/RevisionPanel';

// The photographer's marks on the photos: their drawing code loads only with an order.
const OrderMarksPanel = lazy(() => import('../../marks/components/OrderMarksPanel'));
// The add-ons the photographer ticked on chosen photos (each add-on × its photos, a badge per photo).
const OrderAddOnsPanel = lazy(() => import('../../add-ons/components/OrderAddOnsPanel'));

const NOT_FOUND_TEXT = 'Order not found. You may not have access to this order.';

const backToDashboard = (
  <Anchor component={Link} to="/editor" fz="sm" fw={600}>
    <Group gap={4} component="span" wrap="nowrap">
      <IconArrowLeft size={16} aria-hidden="true" />
      Back to Dashboard
    </Group>
  </Anchor>
);

// A malformed id (400) names no order either; an order the editor may not see answers like a missing one.
const isMissing = (error: unknown) => error instanceof ApiError && [400, 403, 404].includes(error.status);

/** Only the editor's own assignments open here: claimed (in progress), sent back for a revision, or delivered by them. */
const isMyAssignment = (order: OrderDetailView, user: AuthUser | null) =>
  (order.status === 'in_progress' || order.status === 'completed' || order.status === 'revision_requested') &&
  !!order.editor?.email &&
  order.editor.email.toLowerCase() === user?.email?.toLowerCase();

function OrderNotFound() {
  return (
    <Stack gap="md" align="flex-start">
      <PageHeader title="Work on Order" mb={0} />
      <Alert color="orange" w="100%">
        {NOT_FOUND_TEXT}
      </Alert>
      <Button component={Link} to="/editor" leftSection={<IconArrowLeft size={16} aria-hidden="true" />}>
        Back to Dashboard
      </Button>
    </Stack>
  );
}

function EditorOrder({ order, onChanged }: { order: OrderDetailView; onChanged: () => void }) {
  const [tab, setTab] = useState<string | null>('images');
  const [editorNotes, setEditorNotes] = useState(order.editorNotes ?? '');
  const working = order.status === 'in_progress' || order.status === 'revision_requested';

  return (
    <Stack gap="lg">
      <div>{backToDashboard}</div>
      <PageHeader
        title={orderDisplayName(order)}
        description={order.name ? `Order #${order.orderNumber} · ${order.jobTypeName}` : order.jobTypeName}
        mb={0}
        actions={
          <Group gap="sm">
            <OrderStatusBadge status={order.status} size="lg" />
            {order.isLate && order.status === 'in_progress' && <LateBadge size="lg" />}
            {working && <MarkCompleteButton orderId={order.id} editorNotes={editorNotes} />}
          </Group>
        }
      />
      <RevisionPanel order={order} />
      <OrderFacts order={order} />
      <EditingStyleCard order={order} viewer="editor" />
      <Suspense fallback={<SectionLoader label="Loading the add-ons" />}>
        <OrderAddOnsPanel order={order} viewer="editor" />
      </Suspense>
      <Suspense fallback={<SectionLoader label="Loading the marks on the photos" />}>
        <OrderMarksPanel order={order} viewer="editor" />
      </Suspense>
      {/* Both panels stay mounted, so switching tabs never cancels an upload under way. */}
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List mb="md">
          <Tabs.Tab value="images" leftSection={<IconPhoto size={16} aria-hidden="true" />}>
            Images
          </Tabs.Tab>
          <Tabs.Tab value="activity" leftSection={<IconHistory size={16} aria-hidden="true" />}>
            Activity Log
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="images">
          <ImagesTab
            order={order}
            editorNotes={editorNotes}
            onEditorNotesChange={setEditorNotes}
            onUploaded={onChanged}
          />
        </Tabs.Panel>
        <Tabs.Panel value="activity">
          <ActivityLog orderId={order.id} active={tab === 'activity'} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** /editor/orders/{orderId}: one of the editor's assignments, from the originals to the delivery. */
export function EditorOrderPage() {
  const { orderId } = useParams();
  const { user } = useAuth();
  const { data: order, error, isLoading, mutate } = useEditorOrder(orderId);

  if (isLoading || (!error && !order)) return <PageLoader label="Loading the order…" />;
  if (isMissing(error) || (order && !isMyAssignment(order, user))) return <OrderNotFound />;
  if (error || !order) {
    return (
      <Stack gap="md" align="flex-start">
        <PageHeader title="Work on Order" mb={0} />
        <Alert color="red" w="100%">
          This order could not be loaded. Please try again later.
        </Alert>
        {backToDashboard}
      </Stack>
    );
  }
  return <EditorOrder key={order.id} order={order} onChanged={() => void mutate()} />;
}
