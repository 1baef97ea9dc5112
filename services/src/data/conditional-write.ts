/**
 * Whether a write failed because its condition did not hold (the record exists, the order was
 * already claimed, ...). ElectroDB wraps the SDK's ConditionalCheckFailedException; transactions
 * report it as a cancellation reason.
 */
export const isConditionFailure = (error: unknown) =>
  String((error as { cause?: { name?: string } })?.cause?.name ?? (error as Error)?.name).includes(
    'ConditionalCheckFailed',
  ) || String((error as Error)?.message).includes('conditional request failed');
