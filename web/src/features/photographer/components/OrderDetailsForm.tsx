import { Button, Group, NumberInput, Paper, Select, Stack, Textarea, TextInput } from '@mantine/core';
import type { JobTypeView } from '@marketplace/events/job-types';
import { EDITING_REQUIREMENTS_MAX, ORDER_NAME_MAX, PHOTO_COUNT_MAX, PHOTO_COUNT_MIN } from '@marketplace/events/orders';
import { IconArrowRight } from '@tabler/icons-react';
import type { FormEvent } from 'react';
import type { FileRejection } from 'react-dropzone';
import { Link } from 'react-router';
import { formatMoney } from '../../../lib/format-money';
import { PhotoDropZone } from './PhotoDropZone';
import { SceneCountSuggestion } from './SceneCountSuggestion';
import { SelectedFilesList } from './SelectedFilesList';

export interface OrderDetails {
  jobTypeId: string;
  name: string;
  /** '' while the box is empty. */
  photoCount: number | '';
  editingRequirements: string;
  files: File[];
  rejections: FileRejection[];
}

export interface OrderDetailsErrors {
  jobTypeId?: string | null;
  photoCount?: string | null;
  files?: string | null;
}

/**
 * Details stage of Create Order: the service, the order's name and count, requirements and photos,
 * with the scene count the bracket grouping found offered as the photo count.
 */
export function OrderDetailsForm({
  jobTypes,
  details,
  scenes,
  errors,
  busy,
  onChange,
  onSubmit,
}: {
  jobTypes: readonly JobTypeView[];
  details: OrderDetails;
  /** The HDR scene of each chosen file; null while their EXIF is being read. */
  scenes: ReadonlyMap<File, number> | null;
  errors: OrderDetailsErrors;
  busy: boolean;
  onChange: (change: Partial<OrderDetails>) => void;
  onSubmit: () => void;
}) {
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  const sameFile = (a: File, b: File) => a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
      <form onSubmit={handleSubmit} noValidate aria-label="Order details">
        <Stack gap="md">
          <Select
            label="Service type"
            placeholder="Select a service type"
            withAsterisk
            allowDeselect={false}
            value={details.jobTypeId || null}
            onChange={(value) => onChange({ jobTypeId: value ?? '' })}
            error={errors.jobTypeId}
            disabled={busy}
            data={jobTypes.map((jobType) => ({
              value: jobType.id,
              label: `${jobType.name} (${formatMoney(jobType.pricePerPhotoCents)} per photo)`,
            }))}
          />
          <TextInput
            label="Order name"
            description="Optional, e.g. the property's address"
            placeholder="123 Main Street"
            maxLength={ORDER_NAME_MAX}
            value={details.name}
            onChange={(event) => onChange({ name: event.currentTarget.value })}
            disabled={busy}
          />
          <NumberInput
            label="Photo count"
            description={`Distinct photos to edit, ${PHOTO_COUNT_MIN} to ${PHOTO_COUNT_MAX}`}
            withAsterisk
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            value={details.photoCount}
            onChange={(value) =>
              onChange({ photoCount: typeof value === 'number' ? value : value === '' ? '' : Number(value) })
            }
            error={errors.photoCount}
            disabled={busy}
            maw={260}
          />
          <Textarea
            label="Editing requirements"
            description="Anything the editor should know: style, sky, lawn, items to remove"
            autosize
            minRows={3}
            maxRows={10}
            maxLength={EDITING_REQUIREMENTS_MAX}
            value={details.editingRequirements}
            onChange={(event) => onChange({ editingRequirements: event.currentTarget.value })}
            disabled={busy}
          />
          <PhotoDropZone
            disabled={busy}
            error={errors.files}
            rejections={details.rejections}
            onRejections={(rejections) => onChange({ rejections })}
            onFilesAdded={(added) =>
              onChange({
                files: [
                  ...details.files,
                  ...added.filter((file) => !details.files.some((kept) => sameFile(kept, file))),
                ],
              })
            }
          />
          <SceneCountSuggestion
            sceneCount={scenes ? new Set(scenes.values()).size : null}
            fileCount={details.files.length}
            photoCount={details.photoCount}
            disabled={busy}
            onUse={(photoCount) => onChange({ photoCount })}
          />
          <SelectedFilesList
            files={details.files}
            scenes={scenes}
            disabled={busy}
            onRemove={(removed) => onChange({ files: details.files.filter((file) => file !== removed) })}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" component={Link} to="/dashboard">
              Cancel
            </Button>
            <Button
              type="submit"
              loading={busy}
              disabled={busy || details.files.length === 0}
              rightSection={<IconArrowRight size={16} aria-hidden="true" />}
            >
              Continue to Payment
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
