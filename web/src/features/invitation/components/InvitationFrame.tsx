import { Box, Center, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { BrandMark } from '../../../components/BrandMark';

/** The invitation's pages sit on the same quiet background as the login page, one card wide. */
export function InvitationFrame({ children }: { children: ReactNode }) {
  return (
    <Center component="main" mih="100dvh" bg="gray.0" p={{ base: 'md', sm: 'xl' }}>
      <Stack align="center" gap="xl" w="100%" maw={460} py="xl">
        <BrandMark />
        <Box w="100%">{children}</Box>
      </Stack>
    </Center>
  );
}
