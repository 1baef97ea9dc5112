import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

export function EditorDashboardPage() {
  return (
    <>
      <PageHeader title="Editor Dashboard" description="Available orders, your assignments and your earnings." />
      <EmptyState title="Nothing here yet">
        Orders you can claim and the ones you are working on will show here.
      </EmptyState>
    </>
  );
}
