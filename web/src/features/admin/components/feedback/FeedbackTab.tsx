import { EmptyState } from '../../../../components/EmptyState';

export function FeedbackTab() {
  return <EmptyState title="Coming soon">This part of the admin console is being built.</EmptyState>;
}
