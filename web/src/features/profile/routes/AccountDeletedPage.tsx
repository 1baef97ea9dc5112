import { Box, Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { ACCOUNT_PURGE_AFTER_DAYS, type AccountDeletedView } from '@marketplace/events/account-data';
import { IconCircleCheck } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { BRAND_NAME, BrandMark } from '../../../components/BrandMark';
import { signOut } from '../../../lib/auth';

const day = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'long' }).format(new Date(iso));

/**
 * Where the browser lands after 'Delete my account', signed out: the account is deleted, what goes
 * when, and what is kept. Public: there is no account to sign in with any more.
 */
export function AccountDeletedPage() {
  useDocumentTitle(`Account deleted · ${BRAND_NAME}`);
  const deleted = useLocation().state as Partial<AccountDeletedView> | null;
  // Arrived from 'Delete my account' (its answer in the history state): this browser signs out here.
  const fromDeletion = !!deleted?.deletedAt;
  useEffect(() => {
    if (fromDeletion) void signOut();
  }, [fromDeletion]);
  const purgeDay =
    deleted?.purgeAfter && !Number.isNaN(Date.parse(deleted.purgeAfter)) ? day(deleted.purgeAfter) : null;
  return (
    <Center component="main" mih="100dvh" bg="gray.0" p={{ base: 'md', sm: 'xl' }}>
      <Stack align="center" gap="xl" w="100%" maw={520} py="xl">
        <BrandMark />
        <Box w="100%">
          <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }}>
            <Stack gap="sm">
              <Group gap="sm" wrap="nowrap">
                <IconCircleCheck size={28} aria-hidden="true" color="var(--mantine-color-green-8)" />
                <Title order={1} fz={24}>
                  Your account is deleted
                </Title>
              </Group>
              <Text role="status">You have been signed out, and this account can no longer sign in.</Text>
              <Text fz="sm">
                {purgeDay
                  ? `On ${purgeDay} we remove your name, phone, pictures, saved cards and email address.`
                  : `Within ${ACCOUNT_PURGE_AFTER_DAYS} days we remove your name, phone, pictures, saved cards and email address.`}{' '}
                Your orders stay for the photographer or editor on the other side, and payments and receipts are kept as
                tax law requires.
              </Text>
              <Group>
                <Button component={Link} to="/login" variant="default">
                  Back to sign in
                </Button>
              </Group>
            </Stack>
          </Paper>
        </Box>
      </Stack>
    </Center>
  );
}
