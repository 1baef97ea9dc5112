import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { build } from 'esbuild';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lambdaBuildOptions } from '../../../infra/lib/bundling/options';
import { parseMultipartForm, readMultipartForm } from './multipart-form';

/**
 * The routes' multipart reader against Body.formData() of Node's own fetch (undici), which the
 * routes used before: every body, well formed or hostile, is read into the same entries or refused
 * alike. Then: reading a form loads nothing of fetch.
 */
type Seen = 'refused' | [string, string | { filename: string; type: string; bytes: string }][];

const seen = async (entries: Iterable<[string, unknown]>): Promise<Seen> => {
  const out: Exclude<Seen, 'refused'> = [];
  for (const [name, value] of entries) {
    if (typeof value === 'string') out.push([name, value]);
    else {
      const file = value as File;
      out.push([
        name,
        { filename: file.name, type: file.type, bytes: Buffer.from(await file.arrayBuffer()).toString('hex') },
      ]);
    }
  }
  return out;
};

const byFetch = async (contentType: string, body: Buffer): Promise<Seen> => {
  try {
    const form = await new Request('http://localhost/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    }).formData();
    return seen(form.entries() as Iterable<[string, unknown]>);
  } catch {
    return 'refused';
  }
};

const byOurs = async (contentType: string, body: Buffer): Promise<Seen> => {
  const form = parseMultipartForm(contentType, body);
  return form ? seen(form.entries()) : 'refused';
};

const part = (headers: string[], content: string | Buffer) =>
  Buffer.concat([Buffer.from(`${headers.join('\r\n')}\r\n\r\n`), Buffer.from(content)]);

const form = (boundary: string, parts: Buffer[], end = `--${boundary}--\r\n`) =>
  Buffer.concat([
    ...parts.flatMap((p) => [Buffer.from(`--${boundary}\r\n`), p, Buffer.from('\r\n')]),
    Buffer.from(end),
  ]);

const photo = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0x7f, 0xd9]);

const cases: { label: string; contentType: string; body: Buffer }[] = [
  {
    label: 'a field and a file',
    contentType: 'multipart/form-data; boundary=b0und4ry',
    body: form('b0und4ry', [
      part(['Content-Disposition: form-data; name="jobTypeId"'], 'hdr'),
      part(['Content-Disposition: form-data; name="photos"; filename="front.jpg"', 'Content-Type: image/jpeg'], photo),
    ]),
  },
  {
    label: 'a quoted boundary, upper-case type and parameters',
    contentType: 'Multipart/Form-Data; charset=utf-8; BOUNDARY="a b;c"',
    body: form('a b;c', [part(['content-disposition: form-data; name="x"'], 'y')]),
  },
  {
    label: 'names and filenames with escapes, UTF-8 and a BOM in a value',
    contentType: 'multipart/form-data; boundary=x',
    body: form('x', [
      part(['Content-Disposition: form-data; name="a%22b%0Ac"'], '\uFEFFvalue'),
      part(['Content-Disposition: form-data; name="photos"; filename="Küche 😀 %22q%22.jpg"'], photo),
      part(['Content-Disposition: form-data; name="photos"; filename*="utf8.jpg"'], photo),
    ]),
  },
  {
    label: 'a file without a type, and one with a type outside ASCII',
    contentType: 'multipart/form-data; boundary=x',
    body: form('x', [
      part(['Content-Disposition: form-data; name="f"; filename="a.bin"'], 'a'),
      part(['Content-Disposition: form-data; name="f"; filename="b.bin"', 'Content-Type: image/jpég'], 'b'),
    ]),
  },
  {
    label: 'a base64 part',
    contentType: 'multipart/form-data; boundary=x',
    body: form('x', [
      part(
        ['Content-Disposition: form-data; name="f"; filename="a.jpg"', 'Content-Transfer-Encoding: base64'],
        photo.toString('base64'),
      ),
    ]),
  },
  {
    label: 'CRLFs before and after, and an end without CRLF',
    contentType: 'multipart/form-data; boundary=x',
    body: Buffer.concat([
      Buffer.from('\r\n\r\n'),
      form('x', [part(['Content-Disposition: form-data; name="a"'], 'b')], '--x--'),
      Buffer.from('\r\n\r\n'),
    ]),
  },
  { label: 'an empty form', contentType: 'multipart/form-data; boundary=x', body: Buffer.from('--x--\r\n') },
  { label: 'no boundary', contentType: 'multipart/form-data', body: form('x', []) },
  { label: 'another boundary', contentType: 'multipart/form-data; boundary=other', body: form('x', []) },
  { label: 'an empty body', contentType: 'multipart/form-data; boundary=x', body: Buffer.alloc(0) },
  {
    label: 'cut short',
    contentType: 'multipart/form-data; boundary=x',
    body: form('x', [part(['Content-Disposition: form-data; name="a"'], 'b')]).subarray(0, 40),
  },
  {
    label: 'no name',
    contentType: 'multipart/form-data; boundary=x',
    body: form('x', [part(['Content-Disposition: form-data; filename="a.jpg"'], 'b')]),
  },
  {
    label: 'a header without a colon, and one with a space in its name',
    contentType: 'multipart/form-data; boundary=x',
    body: form('x', [part(['Content-Disposition: form-data; name="a"', 'X Bad: 1'], 'b')]),
  },
  {
    label: 'a header line ending in LF only',
    contentType: 'multipart/form-data; boundary=x',
    body: Buffer.from('--x\r\nContent-Disposition: form-data; name="a"\nX: 1\r\n\r\nb\r\n--x--\r\n'),
  },
  {
    label: 'a type list whose last type is another',
    contentType: 'multipart/form-data; boundary=x, text/plain',
    body: form('x', [part(['Content-Disposition: form-data; name="a"'], 'b')]),
  },
  {
    label: 'a type list ending in */*',
    contentType: 'multipart/form-data; boundary=x, */*',
    body: form('x', [part(['Content-Disposition: form-data; name="a"'], 'b')]),
  },
  { label: 'a NUL in the header', contentType: 'multipart/form-data; boundary=x\u0000', body: form('x', []) },
  {
    label: 'a character above U+00FF in the header',
    contentType: 'multipart/form-data; boundary=x€',
    body: form('x€', []),
  },
  { label: 'not multipart at all', contentType: 'multipart/form-datax; boundary=x', body: form('x', []) },
];

describe('multipart forms, read as Body.formData() reads them', () => {
  for (const { label, contentType, body } of cases) {
    it(`reads ${label} as fetch does`, async () => {
      expect(await byOurs(contentType, body)).toEqual(await byFetch(contentType, body));
    });
  }

  it('reads any body built from these pieces, or cut anywhere, as fetch does', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('', ' ', '"', '%22', '%0a', '\r\n', '--x', 'x--', 'ü', '😀', '\u0000', ';', '='),
    );
    const disposition = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('jobTypeId', 'photos', 'editedImage', 'note') },
      { weight: 1, arbitrary: text },
    );
    const header = fc.oneof(
      fc.tuple(text, text).map(([name, file]) => `content-disposition:form-data; name="${name}"; filename*="${file}"`),
      text.map((type) => `Content-Type: ${type}`),
      fc.constantFrom(
        'Content-Transfer-Encoding: base64',
        'X-Other: 1',
        'Bad Header: 1',
        'NoColon',
        ' Content-Type: a/b',
      ),
    );
    const piece = fc.record({
      first: fc.oneof(
        { weight: 3, arbitrary: disposition.map((name) => `Content-Disposition: form-data; name="${name}"`) },
        {
          weight: 3,
          arbitrary: fc
            .tuple(disposition, fc.oneof(text, fc.constantFrom('front.jpg', 'Küche.jpg')))
            .map(([name, file]) => `Content-Disposition: form-data; name="${name}"; filename="${file}"`),
        },
        { weight: 1, arbitrary: header },
      ),
      more: fc.array(header, { maxLength: 2 }),
      content: fc.oneof(
        text,
        fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes)),
      ),
    });
    const boundary = fc.constantFrom('x', 'b0und4ry', 'a b', '----WebKitFormBoundary7MA4YWxkTrZu0gW', 'é');
    const typeFor = (b: string) =>
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(`multipart/form-data; boundary=${b}`) },
        { weight: 2, arbitrary: fc.constant(`multipart/form-data; boundary="${b}"`) },
        {
          weight: 2,
          arbitrary: fc
            .constantFrom(' ', '\t', ';', ', text/plain', ', */*', '; boundary=other', ' ; a="b')
            .map((tail) => `Multipart/Form-Data;Boundary=${b}${tail}`),
        },
        { weight: 1, arbitrary: fc.constant('multipart/form-data; boundary=other') },
        { weight: 1, arbitrary: fc.constant('multipart/form-data') },
      );
    const request = boundary.chain((b) =>
      fc.record({
        type: typeFor(b),
        body: fc
          .tuple(
            fc.array(piece, { maxLength: 4 }),
            fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat() }),
          )
          .map(([pieces, cut]) => {
            const full = form(
              b,
              pieces.map((p) => part([p.first, ...p.more], p.content)),
            );
            return cut === null ? full : full.subarray(0, cut % (full.length + 1));
          }),
      }),
    );
    let read = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ type, body }) => {
        const ours = await byOurs(type, body);
        expect(ours).toEqual(await byFetch(type, body));
        if (ours !== 'refused' && ours.length) read += 1;
      }),
      { numRuns: 2000 },
    );
    // The pieces make forms that are read, not only refused: a fifth of them or more.
    expect(read).toBeGreaterThan(400);
  }, 60_000);

  it("refuses, as the routes' 400, a body it cannot read", async () => {
    const event = {
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: Buffer.from('--y\r\n').toString('base64'),
      isBase64Encoded: true,
    } as unknown as APIGatewayProxyEventV2;
    await expect(readMultipartForm(event, { notMultipart: 'no', tooLarge: 'large' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'INVALID_MULTIPART',
    });
  });

  it("reads a form without loading Node's HTTP client (undici), as a function's first call does", async () => {
    const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
    const outDir = mkdtempSync(path.join(tmpdir(), 'multipart-bundle-'));
    try {
      const outfile = path.join(outDir, 'index.mjs');
      await build({
        ...lambdaBuildOptions(repoRoot),
        entryPoints: [path.join(repoRoot, 'services', 'src', 'http', 'multipart-form.ts')],
        outfile,
        logLevel: 'error',
      });
      const script = `
        const { readMultipartForm } = await import(process.argv[1]);
        const body = '--x\\r\\nContent-Disposition: form-data; name="editedImage"; filename="hall.jpg"\\r\\nContent-Type: image/jpeg\\r\\n\\r\\nJPEG\\r\\n--x--\\r\\n';
        const form = await readMultipartForm({ headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: Buffer.from(body).toString('base64'), isBase64Encoded: true }, {});
        const file = form.get('editedImage');
        const undici = process.moduleLoadList.filter((name) => name.includes('undici'));
        console.log(JSON.stringify({ name: file.name, text: Buffer.from(await file.arrayBuffer()).toString(), undici }));`;
      const { stdout } = await promisify(execFile)(process.execPath, [
        '--input-type=module',
        '-e',
        script,
        pathToFileURL(outfile).href,
      ]);
      expect(JSON.parse(stdout.trim())).toEqual({ name: 'hall.jpg', text: 'JPEG', undici: [] });
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 60_000);
});
