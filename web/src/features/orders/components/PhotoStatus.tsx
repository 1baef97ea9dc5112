import { Paper, Progress, Stack, Text, Title } from '@mantine/core';

function UploadProgress({ label, uploaded, requested }: { label: string; uploaded: number; requested: number }) {
  const percent = requested > 0 ? Math.min(100, (uploaded / requested) * 100) : 0;
  return (
    <div>
      <Text fz="sm" fw={600} mb={4}>
        {label} {uploaded} / {requested}
      </Text>
      <Progress value={percent} aria-label={`${label}: ${uploaded} of ${requested}`} size="lg" radius="xl" />
    </div>
  );
}

/** How many originals and edited photos are in, against the number of photos ordered. */
export function PhotoStatus({
  photoCount,
  originals,
  edited,
}: {
  photoCount: number;
  originals: number;
  edited: number;
}) {
  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="photo-status-heading">
      <Title order={2} fz="lg" id="photo-status-heading" mb="md">
        Photo Status
      </Title>
      <Stack gap="md">
        <UploadProgress label="Originals" uploaded={originals} requested={photoCount} />
        <UploadProgress label="Edited" uploaded={edited} requested={photoCount} />
      </Stack>
    </Paper>
  );
}
