import { describe, expect, it } from 'vitest';
import { formatMoney } from './format-money';

describe('formatMoney', () => {
  it('shows whole dollars with two decimals', () => {
    expect(formatMoney(500)).toBe('$5.00');
  });

  it('shows cents exactly', () => {
    expect(formatMoney(1999)).toBe('$19.99');
    expect(formatMoney(5)).toBe('$0.05');
  });

  it('shows zero as $0.00', () => {
    expect(formatMoney(0)).toBe('$0.00');
  });

  it('groups thousands so large totals stay readable', () => {
    expect(formatMoney(123456789)).toBe('$1,234,567.89');
  });
});
