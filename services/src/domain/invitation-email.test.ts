import { describe, expect, it } from 'vitest';
import { invitationEmail, invitationLink } from './invitation-email';

const input = {
  displayName: 'Tom & "Jerry" <script>',
  email: 'tom+edits@example.test',
  token: 'abc-_123',
  rates: [{ jobTypeName: 'Sky & Clouds', ratePerPhotoCents: 1205 }],
  expiresAt: new Date('2026-11-28T23:10:00Z'),
  siteUrl: 'https://photoedit.example/',
};

describe('the invitation email', () => {
  it('puts the email and token in the link as query parameters, encoded', () => {
    const link = new URL(invitationLink(input));
    expect(link.origin + link.pathname).toBe('https://photoedit.example/invitation');
    expect(link.searchParams.get('email')).toBe('tom+edits@example.test');
    expect(link.searchParams.get('token')).toBe('abc-_123');
  });

  it('names the marketplace, the rates in dollars and the expiry date in both bodies', () => {
    const { subject, text, html } = invitationEmail(input);
    expect(subject).toContain('PhotoEdit Marketplace');
    expect(text).toContain('Sky & Clouds: $12.05 per photo');
    expect(html).toContain('Sky &amp; Clouds: $12.05 per photo');
    for (const body of [text, html]) expect(body).toContain('November 28, 2026');
  });

  it('escapes what the admin typed in the HTML body', () => {
    const { html } = invitationEmail(input);
    expect(html).toContain('Tom &amp; &quot;Jerry&quot; &lt;script&gt;');
    expect(html).not.toContain('<script>');
  });
});
