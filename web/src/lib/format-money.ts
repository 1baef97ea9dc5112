const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });

/** Money is held in integer cents everywhere; only the screen sees dollars. */
export const formatMoney = (cents: number): string => usd.format(cents / 100);
