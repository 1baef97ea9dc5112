import {
  AppShell,
  Avatar,
  Box,
  Burger,
  Divider,
  Drawer,
  Group,
  NavLink,
  Progress,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import type { Role } from '@marketplace/events/roles';
import {
  IconBriefcase,
  IconCirclePlus,
  IconLayoutDashboard,
  IconLogout,
  IconMessageReport,
  IconShieldLock,
  IconUserCircle,
} from '@tabler/icons-react';
import { type ComponentType, useEffect } from 'react';
import { Link, matchPath, Outlet, useLocation, useNavigate, useNavigation } from 'react-router';
import { useSWRConfig } from 'swr';
import { BrandMark } from '../components/BrandMark';
import { type AuthUser, signOut } from '../lib/auth';
import { dashboardPathFor, useCurrentUser } from '../lib/current-user';
import { LOGIN_PATH } from '../lib/login-redirect';
import { LiveUpdatesNotice, LiveUpdatesNoticeRoom } from './LiveUpdatesNotice';

interface NavEntry {
  label: string;
  to: string;
  icon: ComponentType<{ size?: number; stroke?: number }>;
  /** Also highlighted on the pages below this one. */
  matchesChildren?: boolean;
}

const navEntriesFor = (roles: readonly Role[]): NavEntry[] => [
  { label: 'Dashboard', to: dashboardPathFor(roles), icon: IconLayoutDashboard },
  ...(roles.includes('photographer') ? [{ label: 'Create Order', to: '/create-order', icon: IconCirclePlus }] : []),
  ...(roles.includes('editor')
    ? [{ label: 'Available Jobs', to: '/editor', icon: IconBriefcase, matchesChildren: true }]
    : []),
  ...(roles.includes('admin') ? [{ label: 'Admin Panel', to: '/admin', icon: IconShieldLock }] : []),
  { label: 'Report Problem', to: '/feedback', icon: IconMessageReport },
  { label: 'Profile', to: '/profile', icon: IconUserCircle },
];

const navLinkStyles = { root: { borderRadius: 'var(--mantine-radius-md)' }, label: { fontWeight: 500 } };

const roleLabel = (role: Role) => role.charAt(0).toUpperCase() + role.slice(1);

function UserSummary({ user }: { user: AuthUser }) {
  const { data: me, error } = useCurrentUser();
  if (!me && !error) {
    return (
      <Group gap="sm" wrap="nowrap" aria-hidden="true">
        <Skeleton circle height={40} />
        <Stack gap={6} style={{ flex: 1 }}>
          <Skeleton height={10} width="70%" />
          <Skeleton height={8} width="40%" />
        </Stack>
      </Group>
    );
  }
  const name = me?.displayName || user.displayName || me?.email || user.email || 'Signed-in user';
  const imageUrl = me?.profileImageUrl ?? user.photoURL;
  const roles = me?.roles ?? [];
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar src={imageUrl} name={name} color="initials" radius="xl" size={40} alt={imageUrl ? name : undefined} />
      <Box style={{ minWidth: 0 }}>
        <Text fw={600} fz="sm" truncate="end" title={name}>
          {name}
        </Text>
        <Text c="dimmed" fz="xs" truncate="end">
          {roles.length > 0 ? roles.map(roleLabel).join(', ') : 'No roles'}
        </Text>
      </Box>
    </Group>
  );
}

function NavigationContent({ user, onNavigate }: { user: AuthUser; onNavigate: () => void }) {
  const { data: me } = useCurrentUser();
  const location = useLocation();
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const entries = navEntriesFor(me?.roles ?? []);
  // Only one entry is 'current', even when two lead to the same page (an admin's Dashboard is the Admin Panel).
  const activeIndex = entries.findIndex(
    ({ to, matchesChildren }) => matchPath({ path: to, end: !matchesChildren }, location.pathname) !== null,
  );

  const handleSignOut = async () => {
    try {
      await signOut();
      // Nothing of the previous user's data may show for whoever signs in next on this browser.
      await mutate(() => true, undefined, { revalidate: false });
      notifications.show({ color: 'teal', message: 'Signed out successfully' });
      navigate(LOGIN_PATH, { replace: true });
    } catch (error) {
      console.error('Sign-out failed', error);
      notifications.show({ color: 'red', message: 'Error signing out' });
    }
  };

  return (
    <>
      <ScrollArea style={{ flex: 1 }} type="scroll">
        <Box component="nav" aria-label="Main">
          <Stack gap={4}>
            {entries.map(({ label, to, icon: Icon }, index) => {
              const active = index === activeIndex;
              return (
                <NavLink
                  key={label}
                  component={Link}
                  to={to}
                  label={label}
                  active={active}
                  aria-current={active ? 'page' : undefined}
                  leftSection={<Icon size={20} stroke={1.7} />}
                  onClick={onNavigate}
                  variant="light"
                  styles={navLinkStyles}
                />
              );
            })}
          </Stack>
        </Box>
      </ScrollArea>
      <Divider my="md" />
      <Stack gap="sm">
        <UserSummary user={user} />
        <NavLink
          component="button"
          label="Sign Out"
          onClick={handleSignOut}
          leftSection={<IconLogout size={20} stroke={1.7} aria-hidden="true" />}
          styles={navLinkStyles}
        />
      </Stack>
    </>
  );
}

/** The sidebar on wide screens and a drawer behind a burger button on phones, around every signed-in page. */
export function NavigationShell({ user }: { user: AuthUser }) {
  const [drawerOpened, drawer] = useDisclosure(false);
  const navigation = useNavigation();
  const location = useLocation();

  // The drawer closes whenever the page changes, including through the browser's back button.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of page on purpose
  useEffect(() => drawer.close(), [location.pathname]);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 272, breakpoint: 'sm', collapsed: { mobile: true } }}
      padding={{ base: 'md', sm: 'xl' }}
    >
      <AppShell.Header>
        <a href="#main-content" className="skip-link">
          Skip to main content
        </a>
        {navigation.state === 'loading' && (
          <Progress value={100} animated size={3} radius={0} pos="absolute" top={0} left={0} right={0} aria-hidden />
        )}
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Link to="/" style={{ textDecoration: 'none', color: 'inherit' }}>
            <BrandMark />
          </Link>
          <Burger
            opened={drawerOpened}
            onClick={drawer.toggle}
            hiddenFrom="sm"
            size="sm"
            aria-label={drawerOpened ? 'Close navigation' : 'Open navigation'}
            aria-expanded={drawerOpened}
          />
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="md" visibleFrom="sm">
        <NavigationContent user={user} onNavigate={() => {}} />
      </AppShell.Navbar>

      <Drawer
        opened={drawerOpened}
        onClose={drawer.close}
        hiddenFrom="sm"
        size={300}
        padding="md"
        title={<BrandMark compact />}
        styles={{ body: { display: 'flex', flexDirection: 'column', height: 'calc(100% - 60px)' } }}
      >
        <NavigationContent user={user} onNavigate={drawer.close} />
      </Drawer>

      <AppShell.Main bg="gray.0" id="main-content" tabIndex={-1}>
        <Box maw={1200} mx="auto">
          <Outlet />
        </Box>
        <LiveUpdatesNoticeRoom />
      </AppShell.Main>
      <LiveUpdatesNotice />
    </AppShell>
  );
}
