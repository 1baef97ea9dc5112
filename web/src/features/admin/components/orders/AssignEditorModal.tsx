import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { editorName, useAssignableEditors } from '../../api/orders';

const SELECT_AN_EDITOR = 'Please select an editor';

interface AssignEditorModalProps {
  opened: boolean;
  title: string;
  /** What is being assigned, in a sentence. */
  children: ReactNode;
  submitLabel: string;
  onClose: () => void;
  /** Resolves true once the editor has the orders, false when they could not be given (the choice is kept to try again). */
  onAssign: (editorId: string) => Promise<boolean>;
}

/** Picks one of the verified, active editors (searchable by name) and hands the choice back. */
export function AssignEditorModal({ opened, title, children, submitLabel, onClose, onAssign }: AssignEditorModalProps) {
  const { editors, error } = useAssignableEditors();
  const [editorId, setEditorId] = useState<string | null>(null);
  const [missingEditor, setMissingEditor] = useState(false);
  const [sending, setSending] = useState(false);

  const close = () => {
    if (sending) return;
    setEditorId(null);
    setMissingEditor(false);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!editorId) {
      setMissingEditor(true);
      return;
    }
    setSending(true);
    try {
      if (await onAssign(editorId)) setEditorId(null);
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text>{children}</Text>
          {error ? (
            <Alert color="red">Editors could not be loaded. Please try again later.</Alert>
          ) : (
            <Select
              label="Editor"
              placeholder={editors ? 'Search editors by name' : 'Loading editors…'}
              description="Only verified editors are offered."
              data={(editors ?? []).map((editor) => ({ value: editor.id, label: editorName(editor) }))}
              value={editorId}
              onChange={(value) => {
                setEditorId(value);
                if (value) setMissingEditor(false);
              }}
              searchable
              clearable
              nothingFoundMessage={editors?.length === 0 ? 'No verified editors yet' : 'No editor by that name'}
              error={missingEditor ? SELECT_AN_EDITOR : undefined}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={sending}>
              Cancel
            </Button>
            <Button type="submit" loading={sending} disabled={Boolean(error)}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
