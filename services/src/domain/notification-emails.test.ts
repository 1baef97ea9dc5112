import { describe, expect, it } from 'vitest';
import {
  excerpt,
  type NotifiedOrder,
  orderAssignedEmail,
  orderClaimedEmail,
  photosReadyEmail,
  receiptEmail,
  revisionRequestedEmail,
} from './notification-emails';

const order: NotifiedOrder = {
  orderId: '01JABCDEF',
  orderNumber: 1042,
  name: 'Smith & Sons <kitchen>',
  photoCount: 12,
  jobTypeName: 'HDR',
  totalAmountCents: 9600,
  pricePerPhotoCents: 800,
  dueAt: '2026-11-24T15:30:00.000Z',
  editingRequirements: 'Warm tones, keep the "window pull" natural & bright.',
};
const siteUrl = 'https://photoedit.example';

const bothBodies = ({ text, html }: { text: string; html: string }) => [text, html];

describe('the photographer receipt', () => {
  const email = receiptEmail({ order, photographerName: 'Ann', siteUrl });

  it('names the order number in the subject and every fact in both bodies', () => {
    expect(email.subject).toBe('Receipt for order #1042: $96.00 paid');
    for (const body of bothBodies(email)) {
      for (const fact of ['#1042', 'HDR', '12', '$8.00', '$96.00', 'November 24, 2026', '3:30']) {
        expect(body).toContain(fact);
      }
    }
    expect(email.text).toContain('Smith & Sons <kitchen>');
  });

  it('lists each add-on × its photos between the price per photo and the total', () => {
    const withAddOns = receiptEmail({
      order: {
        ...order,
        totalAmountCents: 14_800,
        addOns: [{ name: 'Virtual staging', photoCount: 2, pricePerPhotoCents: 2400 }],
      },
      photographerName: 'Ann',
      siteUrl,
    });
    for (const body of bothBodies(withAddOns)) {
      expect(body).toContain('Virtual staging');
      expect(body).toContain('$24.00 × 2 photos = $48.00');
      expect(body.indexOf('Virtual staging')).toBeLessThan(body.indexOf('$148.00'));
    }
  });

  it("links to the photographer's order page, where the PDF receipt is, and says why it was sent", () => {
    for (const body of bothBodies(email)) {
      expect(body).toContain('https://photoedit.example/orders/01JABCDEF');
      expect(body).toContain('Download receipt');
      expect(body).toContain('You are receiving this because you placed order #1042 on PhotoEdit Marketplace.');
    }
  });

  it('escapes the order name in the HTML body', () => {
    expect(email.html).toContain('Smith &amp; Sons &lt;kitchen&gt;');
    expect(email.html).not.toContain('<kitchen>');
  });
});

describe('the claimed note', () => {
  it("names the editor, the due time and links to the order; escapes the editor's name", () => {
    const email = orderClaimedEmail({ order, photographerName: 'Ann', siteUrl, editorName: 'Eve <b>' });
    expect(email.subject).toBe('Order #1042: Eve <b> has started editing');
    expect(email.text).toContain('Eve <b> has started editing the 12 photos');
    expect(email.html).toContain('Eve &lt;b&gt;');
    expect(email.html).not.toContain('Eve <b>');
    for (const body of bothBodies(email)) {
      expect(body).toContain('November 24, 2026');
      expect(body).toContain('https://photoedit.example/orders/01JABCDEF');
    }
  });
});

describe('the photos-ready email', () => {
  it('links to the order page where the photos are downloaded', () => {
    const email = photosReadyEmail({ order, siteUrl, editedCount: 12 });
    expect(email.subject).toBe('Order #1042: your edited photos are ready');
    for (const body of bothBodies(email)) {
      expect(body).toContain('https://photoedit.example/orders/01JABCDEF');
      expect(body).not.toContain('revision');
    }
  });

  it('says so when a revision round was re-delivered', () => {
    const email = photosReadyEmail({ order, siteUrl, revisionRound: 2 });
    expect(email.subject).toBe('Order #1042: your revised photos are ready (revision 2)');
    for (const body of bothBodies(email)) expect(body).toContain('revision round 2');
  });
});

describe('the assignment note to the editor', () => {
  it("gives the photo count, the earnings, an excerpt of the requirements and the editor's dashboard", () => {
    const email = orderAssignedEmail({ order, editorName: 'Eve', siteUrl, earningsCents: 4800 });
    expect(email.subject).toBe('Order #1042 has been assigned to you');
    for (const body of bothBodies(email)) {
      expect(body).toContain('An admin assigned order #1042 to you');
      expect(body).toContain('$48.00');
      // Not yet claimed, the order opens from the dashboard's available orders, not its own page.
      expect(body).toContain('https://photoedit.example/editor');
      expect(body).not.toContain('/editor/orders/');
      expect(body).toContain('You are receiving this because you are the editor of order #1042');
    }
    expect(email.text).toContain('> Warm tones, keep the "window pull" natural & bright.');
    expect(email.html).toContain('keep the &quot;window pull&quot; natural &amp; bright.');
  });

  it('leaves the earnings out when unknown and cuts long requirements', () => {
    const long = { ...order, editingRequirements: `${'word '.repeat(200)}END` };
    const email = orderAssignedEmail({ order: long, siteUrl, earningsCents: null });
    expect(email.text).not.toContain('Potential earnings');
    expect(email.text).not.toContain('END');
    expect(email.text).toContain('word…');
    expect(email.text.startsWith('Hello,')).toBe(true);
  });
});

describe('the revision request to the editor', () => {
  it('gives the round, the note and the number of photo notes; escapes the note', () => {
    const email = revisionRequestedEmail({
      order,
      editorName: 'Eve',
      siteUrl,
      round: 1,
      note: 'Sky too <em>blue</em> & flat',
      photoNoteCount: 3,
    });
    expect(email.subject).toBe('Order #1042: revision 1 requested');
    expect(email.text).toContain('> Sky too <em>blue</em> & flat');
    expect(email.html).toContain('Sky too &lt;em&gt;blue&lt;/em&gt; &amp; flat');
    expect(email.html).not.toContain('<em>');
    for (const body of bothBodies(email)) {
      expect(body).toContain('revision round 1 of order #1042');
      expect(body).toContain('notes on 3 photos');
      expect(body).toContain('https://photoedit.example/editor/orders/01JABCDEF');
      expect(body).toContain('because you are the editor of order #1042');
    }
  });
});

describe('excerpt', () => {
  it('keeps short text and cuts long text at a word', () => {
    expect(excerpt('  short  ')).toBe('short');
    expect(excerpt('alpha beta gamma delta', 12)).toBe('alpha beta…');
  });
});
