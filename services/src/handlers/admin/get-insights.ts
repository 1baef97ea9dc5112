import { insightsQuery } from '@marketplace/events/insights';
import { insightsView } from '../../data/insights';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** The admin's Insights tab: the range's days in the admin's time zone, summed from hourly rollups. */
export const handler = http({ query: insightsQuery }, async ({ query }) => ok(await insightsView(query)));
