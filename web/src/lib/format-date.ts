import { format } from 'date-fns';

/** Dates read like 'Mar 5, 2025' everywhere in the app. */
export const formatDate = (value: string | number | Date): string => format(new Date(value), 'MMM d, yyyy');
