import { Alert, Anchor, Button, Checkbox, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { type EditingStyle, editingStyleSummary } from '@marketplace/events/editing-style';
import { IconAlertCircle, IconPalette } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { SectionLoader } from '../../../components/PageLoader';
import { apiErrorText } from '../../../lib/api-client';
import { useEditingStyle } from '../../profile/api/editing-style';
import { EditingStyleFields } from '../../profile/components/EditingStyleFields';
import { styleErrorsOf } from '../../profile/components/EditingStyleSection';

/**
 * Create-order's editing style: the saved style in one line, a link to change it on /profile, and
 * 'Change for this order', which changes only this order's copy (reference photos can be left out,
 * not added: they come from the saved style). `style` is null while the order uses the saved one.
 */
export function OrderEditingStyle({
  style,
  onChange,
}: {
  style: EditingStyle | null;
  onChange: (style: EditingStyle | null) => void;
}) {
  const saved = useEditingStyle();
  const [draft, setDraft] = useState<EditingStyle | null>(null);
  const errors = draft ? styleErrorsOf(draft) : {};
  const shown = style ?? saved.data?.style ?? null;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="order-editing-style-title">
      <Stack gap="xs">
        <Group gap="xs">
          <IconPalette size={18} aria-hidden="true" />
          <Text fw={600} id="order-editing-style-title">
            Editing style{style ? ' (changed for this order)' : ''}
          </Text>
        </Group>
        {saved.error && !saved.data ? (
          <Alert color="red" icon={<IconAlertCircle size={18} />} p="xs">
            <Group gap="xs">
              <Text fz="sm">{apiErrorText(saved.error, 'Your editing style could not be loaded.')}</Text>
              <Button size="compact-xs" variant="light" color="red" onClick={() => void saved.mutate()}>
                Try again
              </Button>
            </Group>
          </Alert>
        ) : !shown ? (
          <SectionLoader label="Loading your editing style…" />
        ) : (
          <>
            <Text fz="sm" data-testid="order-style-summary">
              {editingStyleSummary(shown)}
            </Text>
            {shown.notes && (
              <Text fz="sm" c="gray.7" lineClamp={2}>
                Notes: {shown.notes}
              </Text>
            )}
            <Group gap="sm">
              <Button size="xs" variant="light" onClick={() => setDraft(shown)}>
                Change for this order
              </Button>
              {style && (
                <Button size="xs" variant="subtle" onClick={() => onChange(null)}>
                  Use my saved style
                </Button>
              )}
              <Anchor component={Link} to="/profile#editing-style" fz="sm">
                {saved.data?.saved ? 'Edit my saved style' : 'Save a style for every order'}
              </Anchor>
            </Group>
          </>
        )}
      </Stack>
      <Modal opened={draft !== null} onClose={() => setDraft(null)} title="Editing style for this order" size="lg">
        {draft && (
          <Stack gap="md">
            <EditingStyleFields
              style={draft}
              onChange={(change) => setDraft({ ...draft, ...change })}
              errors={errors}
            />
            {draft.referencePhotos.length > 0 && (
              <Stack gap={4}>
                <Text fz="sm" fw={500}>
                  Reference photos sent with this order
                </Text>
                {draft.referencePhotos.map((photo) => (
                  <Checkbox
                    key={photo.key}
                    label={photo.filename}
                    checked
                    onChange={() =>
                      setDraft({ ...draft, referencePhotos: draft.referencePhotos.filter((p) => p.key !== photo.key) })
                    }
                  />
                ))}
              </Stack>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDraft(null)}>
                Cancel
              </Button>
              <Button
                disabled={Object.keys(errors).length > 0}
                onClick={() => {
                  onChange(draft);
                  setDraft(null);
                }}
              >
                Use for this order
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Paper>
  );
}
