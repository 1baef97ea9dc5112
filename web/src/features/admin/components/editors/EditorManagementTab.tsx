import { Alert, Button, Stack } from '@mantine/core';
import type { AdminEditorView } from '@marketplace/events/admin';
import { useState } from 'react';
import { EmptyState } from '../../../../components/EmptyState';
import { PageLoader } from '../../../../components/PageLoader';
import { apiErrorText } from '../../../../lib/api-client';
import { useAdminEditors } from '../../api/editors';
import { ListPagination, needsPages } from '../ListPagination';
import { useCursorPaging } from '../use-cursor-paging';
import { EditorCard } from './EditorCard';
import { EditorTransfersModal } from './EditorTransfersModal';
import { EditRatesModal } from './EditRatesModal';
import { RecordPayoutModal } from './RecordPayoutModal';

type OpenDialog = { kind: 'rates' | 'payout' | 'transfers'; editor: AdminEditorView } | null;

/** Editor Management: the editors a page at a time, with their status, performance, rates and payouts. */
export function EditorManagementTab() {
  const paging = useCursorPaging('editors');
  const { data, error, isValidating } = useAdminEditors({ page: paging.page, cursor: paging.cursor });
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
  if (data.editors.length === 0 && paging.page > 1) {
    return (
      <EmptyState
        title="This page is empty now."
        action={
          <Button variant="default" onClick={paging.first}>
            Back to page 1
          </Button>
        }
      />
    );
  }
  if (data.editors.length === 0) {
    return <EmptyState title="No editors found. Invite some editors to get started!" />;
  }
  const pages = { page: paging.page, pageCount: data.totalPages, hasNext: Boolean(data.nextCursor) };
  return (
    <>
      <Stack component="ul" aria-label="Editors" gap="md" p={0} m={0} style={{ listStyle: 'none' }}>
        {data.editors.map((editor) => (
          <EditorCard
            key={editor.id}
            editor={editor}
            onEditRates={() => setDialog({ kind: 'rates', editor })}
            onRecordPayout={() => setDialog({ kind: 'payout', editor })}
            onShowTransfers={() => setDialog({ kind: 'transfers', editor })}
          />
        ))}
      </Stack>
      {needsPages(pages) && (
        <ListPagination
          noun="editors"
          shown={data.editors.length}
          total={data.total}
          {...pages}
          busy={isValidating}
          onPrevious={paging.previous}
          onNext={() => paging.next(data.nextCursor)}
        />
      )}
      {dialog?.kind === 'rates' && <EditRatesModal key={dialog.editor.id} editor={dialog.editor} onClose={close} />}
      {dialog?.kind === 'payout' && <RecordPayoutModal key={dialog.editor.id} editor={dialog.editor} onClose={close} />}
      {dialog?.kind === 'transfers' && (
        <EditorTransfersModal key={dialog.editor.id} editor={dialog.editor} onClose={close} />
      )}
    </>
  );
}
