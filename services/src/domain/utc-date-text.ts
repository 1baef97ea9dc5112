/**
 * Dates in the words of `Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short',
 * timeZone: 'UTC' })`, written out by hand: a function's first Intl formatter loads ICU's date
 * data, about 10 ms of a cold start, for text whose every part is fixed in UTC. The same words
 * wherever the function runs, whatever ICU data its Node carries.
 */
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** "November 28, 2026". */
export const utcDateText = (date: Date) =>
  `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;

/** "November 28, 2026 at 8:05 PM UTC". */
export const utcDateTimeText = (date: Date) => {
  const hours = date.getUTCHours();
  const minutes = String(date.getUTCMinutes()).padStart(2, '0');
  return `${utcDateText(date)} at ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'} UTC`;
};
