import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { getOrder, markOrderPaid } from '../src/data/orders';
import { orderNotifications, resendNotification } from '../src/ops/notifications';
import { OpsError } from '../src/ops/roles';
import { aDataLayerOrder, aUserWithRoles, waitFor } from './support';

/**
 * A lost email, as the runbook handles it: `notifications <order>` shows each step's email and
 * whether SES accepted it; `resend-notification <order> <event type>` sends it once more, through
 * the stack's own notification worker and the SES stand-in.
 */
interface StoredEmail {
  destination: { to: string[] };
  subject: string;
}

const receiptsTo = async (to: string, orderNumber: number) => {
  const { emails } = (await (await fetch(`${process.env.SES_ENDPOINT}/store`)).json()) as { emails: StoredEmail[] };
  return emails.filter((e) => e.destination.to.includes(to) && e.subject.includes(`#${orderNumber}`));
};

const aPaidOrder = async (photographer: { uid: string }) => {
  const { orderId } = await aDataLayerOrder(photographer);
  await markOrderPaid({ orderId, paymentIntentId: `pi_test_${orderId}`, amountCents: 1600, via: 'client' });
  return (await getOrder(orderId))!;
};

describe('the notifications ops commands', () => {
  it("show an order's receipt as sent, and send it again when asked", async () => {
    const photographer = await aUserWithRoles(['photographer'], { displayName: 'Pat Photographer' });
    const order = await aPaidOrder(photographer);
    const first = await waitFor(
      () => receiptsTo(photographer.email, order.orderNumber),
      (mails) => mails.length > 0,
    );
    expect(first).toHaveLength(1);
    const marked = await waitFor(
      () => orderNotifications(order.orderId),
      (states) => states[0]?.mark === 'sent',
    );
    expect(marked).toEqual([
      {
        eventId: expect.any(String),
        eventType: 'order_paid',
        occurredAt: expect.any(String),
        mark: 'sent',
        markedAt: expect.any(String),
      },
    ]);

    const resent = await resendNotification(order.orderId, 'order_paid');

    expect(resent).toEqual({ eventId: marked[0]!.eventId, eventType: 'order_paid', wasMarked: true });
    const after = await waitFor(
      () => receiptsTo(photographer.email, order.orderNumber),
      (mails) => mails.length > 1,
    );
    expect(after).toHaveLength(2);
    expect(after[1]!.subject).toBe(first[0]!.subject);
    expect(
      (
        await waitFor(
          () => orderNotifications(order.orderId),
          (s) => s[0]?.mark === 'sent',
        )
      )[0]?.mark,
    ).toBe('sent');
  });

  it('refuses a step that sends no email, and an order without that step', async () => {
    const photographer = await aUserWithRoles(['photographer']);
    const order = await aPaidOrder(photographer);

    await expect(resendNotification(order.orderId, 'order_created')).rejects.toThrow(
      'No email is sent for order_created: the notifying events are order_paid, order_claimed, order_completed, order_assigned, revision_requested',
    );
    await expect(resendNotification(order.orderId, 'order_completed')).rejects.toBeInstanceOf(OpsError);
    await expect(orderNotifications(ulid())).rejects.toThrow(/No order/);
  });
});
