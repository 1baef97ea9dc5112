import { Alert, Button, Group, NativeSelect, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FeedbackView, feedbackStatuses, feedbackTypes } from '@marketplace/events/feedback';
import { useState } from 'react';
import { EmptyState } from '../../../../components/EmptyState';
import { apiErrorText } from '../../../../lib/api-client';
import { feedbackStatusBadges, feedbackTypeLabels } from '../../../../lib/feedback-labels';
import {
  type FeedbackStatusFilter,
  type FeedbackTypeFilter,
  type FeedbackUpdate,
  useAllFeedback,
  useUpdateFeedback,
} from '../../api/feedback';
import { ListPagination, needsPages } from '../ListPagination';
import { useCursorPaging } from '../use-cursor-paging';
import { FeedbackCard } from './FeedbackCard';
import { FeedbackDetailsModal } from './FeedbackDetailsModal';
import { FeedbackStatsCards } from './FeedbackStatsCards';

const statusOptions = [
  { value: 'all', label: 'All statuses' },
  ...feedbackStatuses.map((value) => ({ value, label: feedbackStatusBadges[value].label })),
];
const typeOptions = [
  { value: 'all', label: 'All types' },
  ...feedbackTypes.map((value) => ({ value, label: feedbackTypeLabels[value] })),
];

const UPDATE_SUCCESS = 'Feedback updated successfully';
const UPDATE_FAILURE = 'Failed to update feedback';

/** Feedback triage: the counts, the filtered reports as cards, quick status steps and a details modal. */
export function FeedbackTab() {
  const [status, setStatus] = useState<FeedbackStatusFilter>('all');
  const [type, setType] = useState<FeedbackTypeFilter>('all');
  const paging = useCursorPaging(JSON.stringify([status, type]));
  const { data, error, isLoading, isValidating } = useAllFeedback({
    status,
    type,
    page: paging.page,
    cursor: paging.cursor,
  });
  const updateFeedback = useUpdateFeedback();
  const [viewing, setViewing] = useState<FeedbackView | null>(null);
  const [updatingId, setUpdatingId] = useState<string | null>(null);

  const update = async (id: string, change: FeedbackUpdate) => {
    setUpdatingId(id);
    try {
      await updateFeedback(id, change);
      notifications.show({ color: 'green', message: UPDATE_SUCCESS });
      return true;
    } catch (failure) {
      notifications.show({ color: 'red', message: apiErrorText(failure, UPDATE_FAILURE) });
      return false;
    } finally {
      setUpdatingId(null);
    }
  };

  const pagesOf = (page: { totalPages: number; nextCursor: string | null }) => ({
    page: paging.page,
    pageCount: page.totalPages,
    hasNext: Boolean(page.nextCursor),
  });

  const saveDetails = async (change: FeedbackUpdate) => {
    if (viewing && (await update(viewing.id, change))) setViewing(null);
  };

  return (
    <Stack gap="md">
      <FeedbackStatsCards />
      <Paper withBorder p="md" radius="md">
        <Group gap="md" align="flex-end" wrap="wrap">
          <NativeSelect
            label="Status"
            value={status}
            onChange={(event) => setStatus(event.currentTarget.value as FeedbackStatusFilter)}
            data={statusOptions}
            style={{ flex: '1 1 160px' }}
            maw={240}
          />
          <NativeSelect
            label="Type"
            value={type}
            onChange={(event) => setType(event.currentTarget.value as FeedbackTypeFilter)}
            data={typeOptions}
            style={{ flex: '1 1 160px' }}
            maw={240}
          />
        </Group>
      </Paper>

      {isLoading ? (
        <Stack gap="sm" role="status" aria-label="Loading feedback">
          <Skeleton height={140} radius="md" />
          <Skeleton height={140} radius="md" />
        </Stack>
      ) : error || !data ? (
        <Alert color="red" title="Error loading feedback">
          <Stack gap="sm" align="flex-start">
            <Text fz="sm">{error instanceof Error && error.message ? error.message : 'Unknown error'}</Text>
            <Button color="red.8" size="xs" onClick={() => window.location.reload()}>
              Reload Page
            </Button>
          </Stack>
        </Alert>
      ) : data.feedback.length === 0 && paging.page > 1 && !data.nextCursor ? (
        // A status change can empty the last page; offer the way back rather than a dead end.
        <EmptyState
          title="This page is empty now"
          action={
            <Button variant="default" onClick={paging.first}>
              Back to page 1
            </Button>
          }
        />
      ) : data.feedback.length === 0 && !data.nextCursor ? (
        <Paper withBorder p="xl" radius="md">
          <Text ta="center" c="gray.7">
            No feedback found matching your filters.
          </Text>
        </Paper>
      ) : (
        <>
          {!needsPages(pagesOf(data)) && (
            <Text fz="sm" c="gray.7" aria-live="polite">
              Showing {data.feedback.length} of {data.total} items
            </Text>
          )}
          {data.feedback.length === 0 && (
            // A rare type among many reports: this page looked through its share of them and found none.
            <Text fz="sm" c="gray.7">
              No matching feedback among the items this page looked through: Next looks further.
            </Text>
          )}
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Feedback">
            {data.feedback.map((item) => (
              <FeedbackCard
                key={item.id}
                item={item}
                onViewDetails={() => setViewing(item)}
                onQuickUpdate={(next) => update(item.id, { status: next })}
                updating={updatingId === item.id}
              />
            ))}
          </Stack>
          {needsPages(pagesOf(data)) && (
            <ListPagination
              noun="items"
              shown={data.feedback.length}
              total={data.total}
              {...pagesOf(data)}
              busy={isValidating}
              onPrevious={paging.previous}
              onNext={() => paging.next(data.nextCursor)}
            />
          )}
        </>
      )}

      <FeedbackDetailsModal
        item={viewing}
        saving={viewing !== null && updatingId === viewing.id}
        onSave={saveDetails}
        onClose={() => setViewing(null)}
      />
    </Stack>
  );
}
