import http from 'node:http';

/**
 * s3rver answers most of S3 but not ListParts or AbortMultipartUpload, which an upload client
 * needs to resume a multipart upload after a dropped connection or a reload. This stand-in sits
 * on the S3 port, in front of s3rver: it forwards every request untouched, notes each part s3rver
 * accepts, and answers those two calls itself from its notes, in S3's own XML and with the same
 * CORS headers, so browsers and the AWS SDK see one S3 on one origin, as on AWS.
 */
interface Part {
  partNumber: number;
  etag: string;
  size: number;
  lastModified: string;
}

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

export const startS3MultipartShim = async ({ port, backendPort }: { port: number; backendPort: number }) => {
  /** Parts of unfinished uploads, by upload id. */
  const uploads = new Map<string, Map<number, Part>>();
  /** Aborted uploads: S3 answers NoSuchUpload for them from then on, and so does this stand-in. */
  const aborted = new Set<string>();

  const corsHeaders = (req: http.IncomingMessage): Record<string, string> =>
    req.headers.origin
      ? {
          'access-control-allow-origin': req.headers.origin,
          'access-control-expose-headers': 'ETag',
          vary: 'Origin',
        }
      : {};

  const listParts = (req: http.IncomingMessage, res: http.ServerResponse, bucketAndKey: string, uploadId: string) => {
    // An upload with no parts yet has nothing noted: an empty list, as S3 answers for it.
    const parts = uploads.get(uploadId) ?? new Map<number, Part>();
    const [bucket, ...key] = bucketAndKey.replace(/^\//, '').split('/');
    const partXml = [...parts.values()]
      .sort((a, b) => a.partNumber - b.partNumber)
      .map(
        (p) =>
          `<Part><PartNumber>${p.partNumber}</PartNumber><LastModified>${p.lastModified}</LastModified><ETag>${escapeXml(p.etag)}</ETag><Size>${p.size}</Size></Part>`,
      )
      .join('');
    res.writeHead(200, { 'content-type': 'application/xml', ...corsHeaders(req) });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${escapeXml(bucket ?? '')}</Bucket><Key>${escapeXml(decodeURIComponent(key.join('/')))}</Key><UploadId>${escapeXml(uploadId)}</UploadId><MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${partXml}</ListPartsResult>`,
    );
  };

  const noSuchUpload = (req: http.IncomingMessage, res: http.ServerResponse, uploadId: string) => {
    res.writeHead(404, { 'content-type': 'application/xml', ...corsHeaders(req) });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.</Message><UploadId>${escapeXml(uploadId)}</UploadId></Error>`,
    );
  };

  const forward = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    onResponse?: (status: number, headers: http.IncomingHttpHeaders, bytes: number) => void,
  ) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    const upstream = http.request(
      { host: '127.0.0.1', port: backendPort, method: req.method, path: req.url, headers: req.headers },
      (response) => {
        onResponse?.(response.statusCode ?? 500, response.headers, bytes);
        res.writeHead(response.statusCode ?? 500, response.headers);
        response.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, corsHeaders(req));
      res.end();
    });
    req.pipe(upstream);
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const uploadId = url.searchParams.get('uploadId');
    if (uploadId && aborted.has(uploadId) && req.method !== 'OPTIONS') {
      // Drain the body so the client sees the answer rather than a reset connection.
      req.resume();
      return noSuchUpload(req, res, uploadId);
    }
    if (uploadId && req.method === 'GET') return listParts(req, res, url.pathname, uploadId);
    if (uploadId && req.method === 'DELETE') {
      // Aborting forgets the parts; s3rver keeps their bytes until the upload is completed or cleaned.
      uploads.delete(uploadId);
      aborted.add(uploadId);
      res.writeHead(204, corsHeaders(req));
      res.end();
      return;
    }
    const partNumber = Number(url.searchParams.get('partNumber'));
    if (uploadId && req.method === 'PUT' && partNumber) {
      return forward(req, res, (status, headers, bytes) => {
        if (status !== 200 || !headers.etag) return;
        const parts = uploads.get(uploadId) ?? new Map<number, Part>();
        parts.set(partNumber, {
          partNumber,
          etag: String(headers.etag),
          size: bytes,
          lastModified: new Date().toISOString(),
        });
        uploads.set(uploadId, parts);
      });
    }
    if (uploadId && req.method === 'POST') {
      return forward(req, res, (status) => {
        if (status === 200) uploads.delete(uploadId);
      });
    }
    return forward(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
};
