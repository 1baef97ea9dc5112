import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { apiErrorText } from '../../../../lib/api-client';
import { useClaimOrder } from '../../api/claim-order';

const CLAIM_SUCCESS = 'Order claimed successfully!';
const CLAIM_FAILURE = 'Failed to claim order';

/** Claims one order; stays disabled once claimed until the refreshed list takes the order away. */
export function ClaimOrderButton({ orderId, fullWidth }: { orderId: string; fullWidth?: boolean }) {
  const { trigger, isMutating } = useClaimOrder(orderId);
  const [claimed, setClaimed] = useState(false);

  const claim = async () => {
    try {
      await trigger();
      setClaimed(true);
      notifications.show({ color: 'green', message: CLAIM_SUCCESS });
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, CLAIM_FAILURE) });
    }
  };

  return (
    <Button size="sm" onClick={claim} loading={isMutating} disabled={isMutating || claimed} fullWidth={fullWidth}>
      {claimed ? 'Claimed' : 'Claim'}
    </Button>
  );
}
