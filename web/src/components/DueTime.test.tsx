import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../app/AppProviders';
import { DueTime } from './DueTime';

const HOUR_MS = 3_600_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR_MS).toISOString();

const show = (ui: React.ReactNode) => render(<AppProviders>{ui}</AppProviders>);

describe('DueTime', () => {
  it('shows the tier and the time left on an order in progress, and the Late badge once it has passed', () => {
    show(
      <DueTime
        order={{ status: 'in_progress', dueAt: inHours(5.5), isLate: false, turnaroundTier: 'express' }}
        withTimeLeft
      />,
    );
    expect(screen.getByText('Express (24 h)')).toBeInTheDocument();
    expect(screen.getByTestId('time-left')).toHaveTextContent(/^5 h 29 min left$|^5 h 30 min left$/);
    expect(screen.queryByText('Late')).toBeNull();
  });

  it("shows the open revision round's due time and time left, not the first delivery's", () => {
    show(
      <DueTime
        order={{ status: 'revision_requested', dueAt: inHours(-30), isLate: false, turnaroundTier: 'rush' }}
        withTimeLeft
        revisionDueAt={inHours(2)}
      />,
    );
    expect(screen.getByText(/Revision due/)).toBeInTheDocument();
    expect(screen.getByTestId('time-left')).toHaveTextContent(/^1 h 59 min left$|^2 h left$/);
    expect(screen.queryByText('Late')).toBeNull();
  });

  it('marks an open revision round late once its own due time has passed', () => {
    show(
      <DueTime
        order={{ status: 'revision_requested', dueAt: inHours(-30), isLate: false, turnaroundTier: 'rush' }}
        withTimeLeft
        revisionDueAt={inHours(-1)}
      />,
    );
    expect(screen.queryByTestId('time-left')).toBeNull();
    expect(screen.getByText('Late')).toBeInTheDocument();
  });

  it('shows nothing for a round asked for before tiers (no due time)', () => {
    show(
      <DueTime
        order={{ status: 'revision_requested', dueAt: inHours(-30), isLate: false, turnaroundTier: 'standard' }}
        withTimeLeft
        revisionDueAt={null}
      />,
    );
    expect(screen.queryByText(/Due/)).toBeNull();
    expect(screen.queryByText('Standard (48 h)')).toBeNull();
  });
});
