import { TextInput, type TextInputProps } from '@mantine/core';
import { useEffect, useState } from 'react';

const dollarsText = (cents: number) => (cents / 100).toFixed(2);

/** Whole cents for a typed dollar amount of zero or more, rounded; null when it is not one. */
export const parseDollarsToCents = (text: string): number | null => {
  const trimmed = text.trim();
  if (!/^\d*\.?\d*$/.test(trimmed) || !/\d/.test(trimmed)) return null;
  // toFixed first so 12.345 * 100 (1234.4999…) rounds as the 12.345 that was typed.
  return Math.round(Number((Number(trimmed) * 100).toFixed(6)));
};

interface MoneyInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'type'> {
  /** The amount in cents. */
  value: number;
  onChange: (cents: number) => void;
}

/**
 * A dollar amount held in cents: accepts numbers of zero or more, passes each valid one on as
 * rounded cents, and on blur shows it with 2 decimals, or the previous amount if what was typed is
 * not a valid one.
 */
export function MoneyInput({ value, onChange, onBlur, ...props }: MoneyInputProps) {
  const [text, setText] = useState(() => dollarsText(value));
  const [focused, setFocused] = useState(false);

  // An amount set from outside (e.g. a new job type chosen) replaces the text unless it is being typed.
  useEffect(() => {
    if (!focused) setText(dollarsText(value));
  }, [value, focused]);

  return (
    <TextInput
      inputMode="decimal"
      autoComplete="off"
      leftSection="$"
      {...props}
      value={text}
      onFocus={() => setFocused(true)}
      onChange={(event) => {
        const typed = event.currentTarget.value;
        setText(typed);
        const cents = parseDollarsToCents(typed);
        if (cents !== null) onChange(cents);
      }}
      onBlur={(event) => {
        setFocused(false);
        const cents = parseDollarsToCents(text);
        setText(dollarsText(cents ?? value));
        onBlur?.(event);
      }}
    />
  );
}
