// Stands in for @aws-sdk/credential-provider-node in the Lambda bundles. Lambda gives every
// function its role's credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN), the first link of the SDK's default chain; the rest of the chain (profiles,
// SSO, a token file, a container or instance endpoint) never runs there, yet its nested STS and
// SSO clients were most of every bundle's AWS code. Code run from source (the local stack, the
// tests, the ops tools) keeps the whole chain. See docs/decisions/0120-lambda-credentials-from-the-environment.md.
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init = {}) => fromEnv(init);
