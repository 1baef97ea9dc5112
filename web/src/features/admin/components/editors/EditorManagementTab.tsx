import { Alert, Stack } from '@mantine/core';
import type { AdminEditorView } from '@marketplace/events/admin';
import { useState } from 'react';
import { EmptyState } from '../../../../components/EmptyState';
import { PageLoader } from '../../../../components/PageLoader';
import { apiErrorText } from '../../../../lib/api-client';
import { useAdminEditors } from '../../api/editors';
import { EditorCard } from './EditorCard';
import { EditRatesModal } from './EditRatesModal';
import { RecordPayoutModal } from './RecordPayoutModal';

type OpenDialog = { kind: 'rates' | 'payout'; editor: AdminEditorView } | null;

/** Editor Management: every editor with their status, performance, rates and payouts. */
export function EditorManagementTab() {
  const { data, error } = useAdminEditors();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const close = () => setDialog(null);

  if (error) {
    return (
      <Alert color="red" title="Editors could not be loaded">
        {apiErrorText(error, 'Failed to load editors')}
      </Alert>
    );
  }
  if (!data) return <PageLoader label="Loading editors…" />;
  if (data.editors.length === 0) {
    return <EmptyState title="No editors found. Invite some editors to get started!" />;
  }
  return (
    <>
      <Stack component="ul" aria-label="Editors" gap="md" p={0} m={0} style={{ listStyle: 'none' }}>
        {data.editors.map((editor) => (
          <EditorCard
            key={editor.id}
            editor={editor}
            onEditRates={() => setDialog({ kind: 'rates', editor })}
            onRecordPayout={() => setDialog({ kind: 'payout', editor })}
          />
        ))}
      </Stack>
      {dialog?.kind === 'rates' && <EditRatesModal key={dialog.editor.id} editor={dialog.editor} onClose={close} />}
      {dialog?.kind === 'payout' && <RecordPayoutModal key={dialog.editor.id} editor={dialog.editor} onClose={close} />}
    </>
  );
}
