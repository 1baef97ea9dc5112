import { EmptyState } from '../../../../components/EmptyState';

export function InviteEditorTab() {
  return <EmptyState title="Coming soon">This part of the admin console is being built.</EmptyState>;
}
