import { EmptyState } from '../../../../components/EmptyState';

export function EditorManagementTab() {
  return <EmptyState title="Coming soon">This part of the admin console is being built.</EmptyState>;
}
