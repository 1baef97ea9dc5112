import { awsJsonHeaders, awsService, perConfiguration, regionalHost } from './aws-requests';

/**
 * The unsubscribe links' signing key: UNSUBSCRIBE_KEY locally (the local stack makes it once and
 * keeps it), else the Secrets Manager secret at UNSUBSCRIBE_KEY_SECRET_ARN, read once per
 * container. Its SecretString is the key itself (CloudFormation generates it; nobody types it).
 */
const keyOfConfiguration = perConfiguration(({ UNSUBSCRIBE_KEY, UNSUBSCRIBE_KEY_SECRET_ARN, AWS_REGION }) => {
  let pending: Promise<string> | undefined;
  const load = async () => {
    if (UNSUBSCRIBE_KEY) return UNSUBSCRIBE_KEY;
    if (!UNSUBSCRIBE_KEY_SECRET_ARN) {
      throw new Error('Unsubscribe links are not configured: set UNSUBSCRIBE_KEY_SECRET_ARN or UNSUBSCRIBE_KEY');
    }
    const endpoint =
      process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER ||
      process.env.AWS_ENDPOINT_URL ||
      `https://${regionalHost('secretsmanager', AWS_REGION)}`;
    const { SecretString } = await awsService({
      name: 'Secrets Manager',
      signingName: 'secretsmanager',
      region: AWS_REGION,
    }).sendJson<{ SecretString?: string }>('GetSecretValue', {
      url: endpoint,
      headers: awsJsonHeaders('1.1', 'secretsmanager.GetSecretValue'),
      input: { SecretId: UNSUBSCRIBE_KEY_SECRET_ARN },
    });
    if (!SecretString || SecretString.length < 16) throw new Error('The unsubscribe key secret is empty or too short');
    return SecretString;
  };
  return () => {
    pending ??= load().catch((error: unknown) => {
      // A failed read is not kept: the next call reads again.
      pending = undefined;
      throw error;
    });
    return pending;
  };
});

export const unsubscribeKey = () => keyOfConfiguration()();
