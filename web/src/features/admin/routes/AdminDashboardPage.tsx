import { Tabs } from '@mantine/core';
import {
  IconBriefcase,
  IconChartBar,
  IconClipboardList,
  IconMail,
  IconMessageReport,
  IconUserStar,
  IconUsers,
} from '@tabler/icons-react';
import { lazy, type ReactNode, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoader } from '../../../components/PageLoader';
import { useAdminUserCount } from '../api/users';

const OrdersTab = lazy(() => import('../components/orders/OrdersTab').then((m) => ({ default: m.OrdersTab })));
const InviteEditorTab = lazy(() =>
  import('../components/editors/InviteEditorTab').then((m) => ({ default: m.InviteEditorTab })),
);
const EditorManagementTab = lazy(() =>
  import('../components/editors/EditorManagementTab').then((m) => ({ default: m.EditorManagementTab })),
);
const JobTypesTab = lazy(() => import('../components/job-types/JobTypesTab').then((m) => ({ default: m.JobTypesTab })));
const UsersTab = lazy(() => import('../components/users/UsersTab').then((m) => ({ default: m.UsersTab })));
const FeedbackTab = lazy(() => import('../components/feedback/FeedbackTab').then((m) => ({ default: m.FeedbackTab })));
// Brings the charts library (recharts) with it: no other tab, and no other page, loads it.
const InsightsTab = lazy(() => import('../components/insights/InsightsTab').then((m) => ({ default: m.InsightsTab })));

const Loading = ({ tab }: { tab: ReactNode }) => <Suspense fallback={<PageLoader />}>{tab}</Suspense>;

const tabs = ['orders', 'invite', 'editors', 'job-types', 'users', 'feedback', 'insights'] as const;
type AdminTab = (typeof tabs)[number];
const isAdminTab = (value: string | null): value is AdminTab => tabs.includes(value as AdminTab);

/** /admin: seven tabs, Orders first; the open tab is in the address (?tab=) so it survives a reload and can be linked. */
export function AdminDashboardPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const active: AdminTab = isAdminTab(requested) ? requested : 'orders';
  const userCount = useAdminUserCount();

  const open = (tab: string | null) => {
    if (!isAdminTab(tab)) return;
    setSearchParams(tab === 'orders' ? {} : { tab }, { replace: true });
  };

  return (
    <>
      <PageHeader title="Admin Dashboard" description="Orders, editors, job types, users, feedback and insights." />
      <Tabs value={active} onChange={open} keepMounted={false}>
        <Tabs.List mb="lg" style={{ flexWrap: 'wrap' }}>
          <Tabs.Tab value="orders" leftSection={<IconClipboardList size={16} />}>
            Orders
          </Tabs.Tab>
          <Tabs.Tab value="invite" leftSection={<IconMail size={16} />}>
            Invite Editors
          </Tabs.Tab>
          <Tabs.Tab value="editors" leftSection={<IconUserStar size={16} />}>
            Editor Management
          </Tabs.Tab>
          <Tabs.Tab value="job-types" leftSection={<IconBriefcase size={16} />}>
            Job Types
          </Tabs.Tab>
          <Tabs.Tab value="users" leftSection={<IconUsers size={16} />}>
            {userCount === undefined ? 'All Users' : `All Users (${userCount})`}
          </Tabs.Tab>
          <Tabs.Tab value="feedback" leftSection={<IconMessageReport size={16} />}>
            Feedback
          </Tabs.Tab>
          <Tabs.Tab value="insights" leftSection={<IconChartBar size={16} />}>
            Insights
          </Tabs.Tab>
        </Tabs.List>
        {/* Each panel is always there while its tab is open (the tab's aria-controls points at it); its content loads inside. */}
        <Tabs.Panel value="orders">{active === 'orders' && <Loading tab={<OrdersTab />} />}</Tabs.Panel>
        <Tabs.Panel value="invite">{active === 'invite' && <Loading tab={<InviteEditorTab />} />}</Tabs.Panel>
        <Tabs.Panel value="editors">{active === 'editors' && <Loading tab={<EditorManagementTab />} />}</Tabs.Panel>
        <Tabs.Panel value="job-types">{active === 'job-types' && <Loading tab={<JobTypesTab />} />}</Tabs.Panel>
        <Tabs.Panel value="users">{active === 'users' && <Loading tab={<UsersTab />} />}</Tabs.Panel>
        <Tabs.Panel value="feedback">{active === 'feedback' && <Loading tab={<FeedbackTab />} />}</Tabs.Panel>
        <Tabs.Panel value="insights">{active === 'insights' && <Loading tab={<InsightsTab />} />}</Tabs.Panel>
      </Tabs>
    </>
  );
}
