import { Box, Center, Loader, VisuallyHidden } from '@mantine/core';

/** Shown while a page's code or data is on its way. */
export function PageLoader({ label = 'Loading…', fullScreen = false }: { label?: string; fullScreen?: boolean }) {
  return (
    <Center mih={fullScreen ? '100dvh' : 240} role="status">
      <Loader aria-hidden="true" />
      <VisuallyHidden>{label}</VisuallyHidden>
    </Center>
  );
}

/**
 * A small spinner where one section's data is on its way. The spinner itself is a plain element,
 * which may not carry a name (axe: aria-prohibited-attr), so a status region says what is loading.
 */
export function SectionLoader({ label }: { label: string }) {
  return (
    <Box role="status">
      <Loader size="sm" aria-hidden="true" />
      <VisuallyHidden>{label}</VisuallyHidden>
    </Box>
  );
}
