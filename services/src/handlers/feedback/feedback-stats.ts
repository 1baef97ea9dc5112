import { feedbackStats } from '../../data/feedback';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

export const handler = http({}, async () => ok({ stats: await feedbackStats() }));
