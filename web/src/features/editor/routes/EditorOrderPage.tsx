import { Anchor } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

export function EditorOrderPage() {
  const { orderId } = useParams();
  return (
    <>
      <PageHeader title="Work on Order" description={orderId ? `Order reference ${orderId}` : undefined} />
      <EmptyState
        title="Nothing here yet"
        action={
          <Anchor component={Link} to="/editor">
            Back to Dashboard
          </Anchor>
        }
      >
        The original photos, your uploads, notes and the activity log will show here.
      </EmptyState>
    </>
  );
}
