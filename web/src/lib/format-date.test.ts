import { describe, expect, it } from 'vitest';
import { formatDate } from './format-date';

describe('formatDate', () => {
  it('shows an ISO timestamp as month, day and year', () => {
    expect(formatDate('2025-03-05T12:00:00')).toBe('Mar 5, 2025');
  });

  it('does not pad single-digit days', () => {
    expect(formatDate(new Date(2024, 0, 1))).toBe('Jan 1, 2024');
  });

  it('shows two-digit days as they are', () => {
    expect(formatDate(new Date(2023, 11, 31))).toBe('Dec 31, 2023');
  });
});
