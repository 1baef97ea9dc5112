import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

export function AdminDashboardPage() {
  return (
    <>
      <PageHeader title="Admin Dashboard" description="Orders, editors, job types, users and feedback." />
      <EmptyState title="Nothing here yet">Marketplace management tools will show here.</EmptyState>
    </>
  );
}
