import { Alert, Box, Button, Grid, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { EditingStyle } from '@marketplace/events/editing-style';
import { type CreateOrderInput, orderFormMessages, PHOTO_COUNT_MAX, PHOTO_COUNT_MIN } from '@marketplace/events/orders';
import { type TurnaroundTier, tierSurchargeCents, turnaroundTierLabel } from '@marketplace/events/turnaround';
import { IconAlertCircle } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoader, SectionLoader } from '../../../components/PageLoader';
import { PaymentStep } from '../../../components/payment/PaymentStep';
import { apiErrorText } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { useEditingStyle } from '../../profile/api/editing-style';
import { createOrder } from '../api/create-order';
import { useJobTypes } from '../api/use-job-types';
import { type OrderDetails, type OrderDetailsErrors, OrderDetailsForm } from '../components/OrderDetailsForm';
import { OrderEditingStyle } from '../components/OrderEditingStyle';
import { OrderSummary } from '../components/OrderSummary';
import { TurnaroundTierPicker } from '../components/TurnaroundTierPicker';
import { UploadProgressPanel } from '../components/UploadProgressPanel';
import { bracketsFound, scenesWithin, useFileScenes } from '../dropped-files/file-scenes';
import { endOriginalsUpload, originalsUploadFor } from '../uploads/originals-upload';
import { clearPendingOrder, type PendingOrder, readPendingOrder, writePendingOrder } from '../uploads/pending-order';
import { useOriginalsUpload } from '../uploads/use-originals-upload';

// Marks on the photos, drawn while paying (the order and its photos exist by then): loaded only here.
const OrderMarksPanel = lazy(() => import('../../marks/components/OrderMarksPanel'));
// Add-ons on chosen photos, picked while paying (the server prices them): loaded only here.
const OrderAddOnsPanel = lazy(() => import('../../add-ons/components/OrderAddOnsPanel'));

const emptyDetails: OrderDetails = {
  jobTypeId: '',
  name: '',
  photoCount: PHOTO_COUNT_MIN,
  editingRequirements: '',
  files: [],
  rejections: [],
};

/** How long Continue to Payment waits for the files' EXIF before the order goes on without scenes. */
const SCENE_READ_WAIT_MS = 5000;

const photoCountError = (count: number | '') => {
  if (count === '') return orderFormMessages.photoCountRequired;
  if (!Number.isInteger(count)) return 'Photo count must be a whole number';
  if (count < PHOTO_COUNT_MIN) return orderFormMessages.photoCountMin;
  if (count > PHOTO_COUNT_MAX) return orderFormMessages.photoCountMax;
  return null;
};

const filesError = (details: OrderDetails, showMissing: boolean) => {
  if (details.files.length === 0) return showMissing ? orderFormMessages.noFiles : null;
  if (typeof details.photoCount === 'number' && details.files.length < details.photoCount) {
    return orderFormMessages.tooFewFiles(details.photoCount, details.files.length);
  }
  return null;
};

function UploadStage({
  pending,
  onUploaded,
  onCancel,
}: {
  pending: PendingOrder;
  onUploaded: () => void;
  onCancel: () => void;
}) {
  const upload = useMemo(() => originalsUploadFor(pending), [pending]);
  const progress = useOriginalsUpload(upload);

  useEffect(() => {
    if (progress.allDone) onUploaded();
  }, [progress.allDone, onUploaded]);

  return (
    <UploadProgressPanel
      orderNumber={pending.order.orderNumber}
      progress={progress}
      onRetry={() => upload.retryFailed()}
      onDropMissing={() => upload.dropMissing()}
      onCancel={onCancel}
    />
  );
}

/** Create Order: details and photos, then the photos go to S3, then the card payment. */
export function CreateOrderPage() {
  const navigate = useNavigate();
  const { user } = useAuth();
  const ownerUid = user?.uid;
  const jobTypes = useJobTypes();
  const [pending, setPending] = useState<PendingOrder | null>(() => readPendingOrder(ownerUid));
  const [details, setDetails] = useState<OrderDetails>(emptyDetails);
  const [tier, setTier] = useState<TurnaroundTier>('standard');
  const [touched, setTouched] = useState({ any: false, photoCount: false, submitted: false });
  const [creating, setCreating] = useState(false);
  /** This order's style when changed for it; null: the saved style as shown (the server takes its own when none is loaded). */
  const [orderStyle, setOrderStyle] = useState<EditingStyle | null>(null);
  const savedStyle = useEditingStyle();
  const scenes = useFileScenes(details.files);

  const activeJobTypes = useMemo(() => (jobTypes.data ?? []).filter((jobType) => jobType.isActive), [jobTypes.data]);
  const selectedJobType = activeJobTypes.find((jobType) => jobType.id === details.jobTypeId) ?? null;
  const errors: OrderDetailsErrors = {
    jobTypeId: touched.submitted && !details.jobTypeId ? orderFormMessages.serviceTypeRequired : null,
    photoCount: touched.photoCount || touched.submitted ? photoCountError(details.photoCount) : null,
    files: filesError(details, touched.any || touched.submitted),
  };

  const changeDetails = (change: Partial<OrderDetails>) => {
    setDetails((current) => ({ ...current, ...change }));
    setTouched((current) => ({ ...current, any: true, photoCount: current.photoCount || 'photoCount' in change }));
  };

  const leaveOrder = (orderId: string) => {
    endOriginalsUpload(orderId);
    clearPendingOrder();
    setPending(null);
  };

  const continueToPayment = async () => {
    setTouched((current) => ({ ...current, submitted: true }));
    const countError = photoCountError(details.photoCount);
    if (!details.jobTypeId || countError || filesError(details, true)) return;
    const input: CreateOrderInput = {
      jobTypeId: details.jobTypeId,
      name: details.name.trim() || undefined,
      photoCount: details.photoCount as number,
      editingRequirements: details.editingRequirements.trim() || undefined,
      turnaroundTier: tier,
      ...(orderStyle || savedStyle.data?.saved ? { editingStyle: orderStyle ?? savedStyle.data?.style } : {}),
    };
    setCreating(true);
    try {
      // Usually read already; a file whose EXIF never answers leaves the order without scenes.
      const scenesOfFiles = scenes ?? (await scenesWithin(details.files, SCENE_READ_WAIT_MS));
      // Scenes are stored only when brackets were found: single shots need no grouping for the editor.
      const created = await createOrder(input);
      notifications.show({ color: 'green', message: 'Order created! Please complete payment.' });
      const newPending: PendingOrder = {
        ownerUid: ownerUid ?? '',
        order: created.order,
        clientSecret: created.stripeClientSecret,
        uploads: {},
      };
      writePendingOrder(newPending);
      originalsUploadFor(newPending).start(details.files, bracketsFound(scenesOfFiles) ? scenesOfFiles : null);
      setPending(newPending);
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'Failed to create order') });
    } finally {
      setCreating(false);
    }
  };

  const header = (
    <PageHeader title="Create Order" description="Choose a service, upload your photos and pay per photo." />
  );

  if (pending && !pending.uploadsComplete) {
    const orderId = pending.order.id;
    return (
      <>
        {header}
        <UploadStage
          pending={pending}
          onCancel={() => leaveOrder(orderId)}
          onUploaded={() => {
            const uploaded = { ...(readPendingOrder(ownerUid) ?? pending), uploadsComplete: true };
            writePendingOrder(uploaded);
            endOriginalsUpload(orderId);
            setPending(uploaded);
          }}
        />
      </>
    );
  }

  if (pending) {
    return (
      <>
        {header}
        <PaymentStep
          order={pending.order}
          clientSecret={pending.clientSecret}
          onCancel={() => leaveOrder(pending.order.id)}
          // After the bank's page the order's own payment page finishes the payment, not this one.
          onLeaving={() => clearPendingOrder()}
          onPaid={() => {
            clearPendingOrder();
            notifications.show({ color: 'green', message: 'Payment successful!' });
            navigate('/dashboard');
          }}
        />
        <Suspense fallback={<SectionLoader label="Loading the add-ons" />}>
          <Box mt="lg">
            <OrderAddOnsPanel
              order={{ id: pending.order.id, status: 'pending_payment', jobTypeName: selectedJobType?.name }}
              viewer="photographer"
              onPriced={(price) => {
                // The total to pay is the server's, as it answered the add-ons.
                const priced = { ...pending, order: { ...pending.order, totalAmountCents: price.totalCents } };
                writePendingOrder(priced);
                setPending(priced);
              }}
            />
          </Box>
        </Suspense>
        <Suspense fallback={<SectionLoader label="Loading the marks on the photos" />}>
          <Box mt="lg">
            <OrderMarksPanel order={{ id: pending.order.id, status: 'pending_payment' }} viewer="photographer" />
          </Box>
        </Suspense>
      </>
    );
  }

  // The saved style is waited for too (a failure still shows the form, the style card saying so):
  // the style card above the form would otherwise grow when it came, moving the form under the
  // photographer's pointer.
  if (jobTypes.isLoading || savedStyle.isLoading) {
    return (
      <>
        {header}
        <PageLoader label="Loading services…" />
      </>
    );
  }

  if (jobTypes.error) {
    return (
      <>
        {header}
        <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />} title="Services could not be loaded">
          {apiErrorText(jobTypes.error, 'Failed to load the services. Please try again.')}
          <Button mt="sm" variant="light" color="red" display="block" onClick={() => void jobTypes.mutate()}>
            Try again
          </Button>
        </Alert>
      </>
    );
  }

  if (!activeJobTypes.length) {
    return (
      <>
        {header}
        <EmptyState title="No services available">
          No editing services are open for orders right now. Please check back soon.
        </EmptyState>
      </>
    );
  }

  return (
    <>
      {header}
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">
            <OrderEditingStyle style={orderStyle} onChange={setOrderStyle} />
            <TurnaroundTierPicker jobType={selectedJobType} value={tier} onChange={setTier} />
            <OrderDetailsForm
              jobTypes={activeJobTypes}
              details={details}
              scenes={scenes}
              errors={errors}
              busy={creating}
              onChange={changeDetails}
              onSubmit={() => void continueToPayment()}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <OrderSummary
            photoCount={typeof details.photoCount === 'number' ? details.photoCount : 0}
            fileCount={details.files.length}
            pricePerPhotoCents={selectedJobType?.pricePerPhotoCents ?? null}
            surcharge={
              selectedJobType && tierSurchargeCents(selectedJobType.tierSurchargeCents, tier) > 0
                ? {
                    label: turnaroundTierLabel[tier],
                    perPhotoCents: tierSurchargeCents(selectedJobType.tierSurchargeCents, tier),
                  }
                : null
            }
          />
        </Grid.Col>
      </Grid>
    </>
  );
}
