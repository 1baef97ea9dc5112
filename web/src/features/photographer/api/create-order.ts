import type { CreateOrderInput, CreateOrderResponse } from '@marketplace/events/orders';
import { apiPost } from '../../../lib/api-client';

/** Creates a pending_payment order priced by the server, with the PaymentIntent's client secret. */
export const createOrder = (input: CreateOrderInput) => apiPost<CreateOrderResponse>('/api/orders', input);
