import { S3Client } from '@aws-sdk/client-s3';
import { config } from '../config';

export { photosBucket } from './s3-requests';

let client: S3Client | undefined;

/**
 * One S3 client per process, for the workers (the routes sign their few requests without it:
 * s3-requests.ts). Against a local endpoint it uses path-style addresses (the S3 stand-in serves
 * one host); in the cloud, the regional virtual-hosted style.
 */
export const s3 = () => {
  const { AWS_REGION, S3_ENDPOINT } = config();
  client ??= new S3Client({
    region: AWS_REGION,
    ...(S3_ENDPOINT ? { endpoint: S3_ENDPOINT, forcePathStyle: true } : {}),
  });
  return client;
};
