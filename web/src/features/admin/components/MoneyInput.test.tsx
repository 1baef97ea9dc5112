import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { MoneyInput, parseDollarsToCents } from './MoneyInput';

function Harness({ initialCents }: { initialCents: number }) {
  const [cents, setCents] = useState(initialCents);
  return (
    <MantineProvider>
      <MoneyInput label="Price" value={cents} onChange={setCents} />
      <output aria-label="Cents">{cents}</output>
      <button type="button">Elsewhere</button>
    </MantineProvider>
  );
}

async function typeAndBlur(text: string, initialCents = 500) {
  const user = userEvent.setup();
  render(<Harness initialCents={initialCents} />);
  const input = screen.getByRole('textbox', { name: 'Price' });
  await user.clear(input);
  if (text) await user.type(input, text);
  await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
  return { input, cents: screen.getByRole('status', { name: 'Cents' }) };
}

describe('Money input', () => {
  it('shows the amount in dollars with two decimals', () => {
    render(<Harness initialCents={1250} />);
    expect(screen.getByRole('textbox', { name: 'Price' })).toHaveValue('12.50');
  });

  it('rounds to whole cents and shows two decimals when it loses focus', async () => {
    const { input, cents } = await typeAndBlur('12.345');
    expect(cents).toHaveTextContent('1235');
    expect(input).toHaveValue('12.35');
  });

  it('takes zero as an amount', async () => {
    const { input, cents } = await typeAndBlur('0');
    expect(cents).toHaveTextContent(/^0$/);
    expect(input).toHaveValue('0.00');
  });

  it.each(['-1', 'abc', ''])("falls back to the previous amount for '%s'", async (typed) => {
    const { input, cents } = await typeAndBlur(typed, 500);
    expect(cents).toHaveTextContent('500');
    expect(input).toHaveValue('5.00');
  });

  it('turns typed dollars into cents, refusing anything that is not a number of zero or more', () => {
    expect(parseDollarsToCents('1.005')).toBe(101);
    expect(parseDollarsToCents('.5')).toBe(50);
    expect(parseDollarsToCents('7')).toBe(700);
    expect(parseDollarsToCents('1e3')).toBeNull();
    expect(parseDollarsToCents('.')).toBeNull();
    expect(parseDollarsToCents('-0.5')).toBeNull();
  });
});
